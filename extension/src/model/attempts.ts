/** Restarted attempts of a compile (tcexplore/capture/attempts.py): each keeps its Dynamo graph. */

import { firstLine } from './format';
import { Compile, RestartedAttempt } from './types';

/** torch names a restart without a message by its exception's class: "<class 'a.b.C'>" -> "C". */
function reasonLine(reason: string): string {
  const line = firstLine(reason);
  return /^<class '(?:[\w.]*\.)?(\w+)'>$/.exec(line)?.[1] ?? line;
}

/** "2/1 · Dynamo, attempt 0 (restarted: TensorifyScalarRestartAnalysis)" */
export function restartedLabel(c: Compile, a: RestartedAttempt): string {
  const why = a.reason ? `restarted: ${reasonLine(a.reason)}` : 'restarted';
  return `${c.id} · Dynamo, attempt ${a.attempt} (${why})`;
}
