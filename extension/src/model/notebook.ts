/** The sidebar's view of open notebooks: which cells hold a tcexplore output. */

import { MIME_TYPE } from './types';

export interface OutputLike {
  data?: Record<string, unknown> | null;
}

/** A code cell as the sidebar reads it: its outputs and its execution count (null: not run). */
export interface CellLike {
  executionCount: number | null;
  outputs: OutputLike[];
}

export interface ExplorationEntry {
  /** the cell's position in the notebook (to scroll to it) */
  cell: number;
  /** the cell's execution count, as Jupyter numbers it: [3] */
  execution: number | null;
  output: number;
  label: string;
  detail: string;
}

/** The cell's prompt as Jupyter shows it: "[3]", or "[ ]" for a cell not run. */
export function cellPrompt(entry: ExplorationEntry): string {
  return entry.execution === null ? '[ ]' : `[${entry.execution}]`;
}

/** What the sidebar says of a stored document: the `listing` Python decided for it
 * (tcexplore/findings/listing.py: its functions, counts and verdicts in a few words, the
 * same as its own views say), or why it has none. */
export function labelOf(data: unknown): { label: string; detail: string } {
  const doc = (data && typeof data === 'object' ? data : {}) as Record<
    string,
    any
  >;
  if (doc.schema !== 'tcexplore/1') {
    return {
      label: 'tcexplore output',
      detail: `schema ${String(doc.schema ?? '?')}`
    };
  }
  const listing = doc.listing;
  if (
    listing &&
    typeof listing.label === 'string' &&
    typeof listing.detail === 'string'
  ) {
    return { label: listing.label, detail: listing.detail };
  }
  return { label: 'tcexplore output', detail: OLD_LISTING };
}

/** Why an entry names nothing of its document: one saved before its listing was stored. */
export const OLD_LISTING =
  'saved before tcexplore stored how to list it: run the cell again, or tcexplore.load() and display it';

/** Every tcexplore output of a notebook's cells, named by its stored listing (which a big
 * output keeps beside its packed compiles: nothing is inflated to list it). */
export async function findExplorations(
  cells: CellLike[]
): Promise<ExplorationEntry[]> {
  const found: ExplorationEntry[] = [];
  cells.forEach(({ executionCount, outputs }, cell) =>
    outputs.forEach((out, output) => {
      const data = out.data?.[MIME_TYPE];
      if (data !== undefined) {
        found.push({
          cell,
          execution: executionCount,
          output,
          ...labelOf(data)
        });
      }
    })
  );
  return found;
}
