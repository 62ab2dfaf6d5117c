/** Restarted attempts of a compile (tcexplore/capture/attempts.py): each keeps its Dynamo graph. */

import { firstLine } from './format';
import { Compile, RestartedAttempt } from './types';

/** "2/1 · Dynamo, attempt 0 (restarted: <class '…TensorifyScalarRestartAnalysis'>)" */
export function restartedLabel(c: Compile, a: RestartedAttempt): string {
  const why = a.reason ? `restarted: ${firstLine(a.reason)}` : 'restarted';
  return `${c.id} · Dynamo, attempt ${a.attempt} (${why})`;
}
