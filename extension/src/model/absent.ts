/**
 * Tabs with nothing to show for a document: hidden from the tab strip (a link still opens
 * them), and named on the Overview with what the document lacks and what would fill it.
 */

import { comparisonRows } from './compare';
import { cudaGraphSections } from './cudagraphs';
import { runOf } from './run';
import { shapeEntries } from './shapes';
import { TabId, TcxDocument } from './types';

export interface AbsentTab {
  tab: TabId;
  /** what the document lacks, and what would fill the tab */
  what: string;
}

export function absentTabs(doc: TcxDocument): AbsentTab[] {
  const out: AbsentTab[] = [];
  if (
    !doc.timing &&
    !doc.compiles.some(c => Array.isArray(c.phases) && c.phases.length)
  ) {
    out.push({
      tab: 'timing',
      what: 'timing (tcexplore.explore() measures eager against compiled)'
    });
  }
  if (!doc.compiles.some(c => c.bytecode)) {
    out.push({
      tab: 'bytecode',
      what: "bytecode (a live capture records every frame Dynamo transforms; a TORCH_TRACE log only the resume functions')"
    });
  }
  if (!doc.accuracy) {
    out.push({
      tab: 'accuracy',
      what: 'an accuracy check (tcexplore.explore() compares compiled outputs with eager)'
    });
  }
  if (!doc.profile) {
    out.push({
      tab: 'profile',
      what: 'a profile (explore(..., profile=True), %%tcompile --profile, tcexplore.capture(profile=True) or tcexplore run --profile times every kernel)'
    });
  }
  if (!runOf(doc)) {
    out.push({
      tab: 'run',
      what: doc.profile
        ? 'a run view (this document was made before tcexplore measured runs)'
        : 'a run view (a profile also times each compiled frame and the eager gaps between them)'
    });
  }
  if (!doc.memory && !doc.compiles.some(c => c.memory)) {
    out.push({
      tab: 'memory',
      what: 'memory (AOT graphs and output code of a compile, or explore(..., memory=True))'
    });
  }
  if (!cudaGraphSections(doc).length) {
    const unrecorded = (doc.capture?.unavailable ?? []).some(
      u => u.field === 'compiles[].cudagraphs'
    );
    out.push({
      tab: 'cudagraphs',
      what: unrecorded
        ? "CUDA-graph data (not recorded by this document's source)"
        : 'CUDA-graph data (CUDA graphs exist on GPU runs with mode="reduce-overhead" or "max-autotune")'
    });
  }
  if (!shapeEntries(doc).length) {
    out.push({
      tab: 'shapes',
      what: 'dynamic shapes (no size of this run became dynamic)'
    });
  }
  if (!comparisonRows(doc).length) {
    out.push({
      tab: 'compare',
      what: 'a comparison grid (tcexplore.compare() makes one)'
    });
  }
  return out;
}
