/**
 * "Try it": a finding's setting tried on the call its output came from, by tcexplore in the
 * notebook's kernel (tcexplore/notebook/try_it.py), which keeps the latest explorations and
 * cells it made by their document id. This module builds the request (that id and the
 * fix's label), the Python statement that sends it (the request as one JSON string
 * literal: data, nothing of the document is evaluated) and reads the reply line.
 */

import { TriedFix } from './types';

export const TRY_FIX = 'tcexplore:try-fix';
export const TRY_FIX_UNAVAILABLE = 'tcexplore:try-fix-unavailable';
export const TRIED_MARK = 'tcexplore-tried:';

/** Why a saved output's button is disabled where no kernel runs. */
export const NO_KERNEL =
  'No kernel: start one and run the cell again to try this setting (the kernel keeps the call it tries).';

export interface TryRequest {
  [key: string]: unknown;
  document: string;
  label: string;
}

/** One Python expression statement: JSON.stringify of a string is a valid Python string literal. */
export function tryStatement(request: TryRequest): string {
  return `__import__("tcexplore.notebook.try_it", fromlist=["print_tried"]).print_tried(${JSON.stringify(JSON.stringify(request))})`;
}

/** The tried record from what the statement printed, or an Error with tcexplore's message. */
export function parseTried(stdout: string): TriedFix {
  const line = stdout.split('\n').find(l => l.startsWith(TRIED_MARK));
  if (!line) {
    throw new Error(
      `tcexplore gave no answer${stdout.trim() ? `: ${stdout.trim().slice(0, 300)}` : ''}`
    );
  }
  const reply = JSON.parse(line.slice(TRIED_MARK.length)) as {
    tried?: TriedFix;
    error?: unknown;
  };
  if (reply.tried && typeof reply.tried.sentence === 'string') {
    return reply.tried;
  }
  throw new Error(String(reply.error ?? 'tcexplore gave no answer'));
}
