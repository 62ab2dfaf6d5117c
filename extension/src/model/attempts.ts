/** Restarted attempts of a compile (tcexplore/capture/attempts.py): each keeps its Dynamo graph. */

import { firstLine } from './format';
import { Compile, RestartedAttempt } from './types';

/** "2/1 · Dynamo, attempt 0 (restarted: TensorifyScalarRestartAnalysis)" */
export function restartedLabel(c: Compile, a: RestartedAttempt): string {
  // the reason in one line as capture named it (an exception's class by its name alone)
  const line = a.reason_line ?? (a.reason ? firstLine(a.reason) : null);
  const why = line ? `restarted: ${line}` : 'restarted';
  return `${c.id} · Dynamo, attempt ${a.attempt} (${why})`;
}
