/**
 * The CUDA graphs tab: what capture read from torch's `cudagraphs` log and warnings, per
 * compile (`compiles[].cudagraphs`) and for run-time messages no compile claimed
 * (`runtime.cudagraphs`), plus the `cudagraph_skip_reason` compile metric.
 */

import {
  CudaGraphInfo,
  CudaGraphPartition,
  CudaGraphSkip,
  FastPathMissed,
  TcxDocument
} from './types';

export interface CudaGraphSection {
  /** A compile id, or "run time" for messages logged outside any compile. */
  compile: string;
  skipReason: string | null;
  summary: {
    partitions: number;
    cudagraphable: number;
    non_cudagraphable: number;
  } | null;
  partitions: CudaGraphPartition[];
  skips: CudaGraphSkip[];
  recordings: number;
  rerecordings: number;
  fastPathMissed: FastPathMissed | null;
}

function section(
  compile: string,
  info: CudaGraphInfo | null | undefined,
  reason: unknown
): CudaGraphSection | null {
  const s: CudaGraphSection = {
    compile,
    skipReason: typeof reason === 'string' ? reason : null,
    summary: info?.summary ?? null,
    partitions: Array.isArray(info?.partitions) ? info!.partitions : [],
    skips: Array.isArray(info?.skips) ? info!.skips : [],
    recordings: typeof info?.recordings === 'number' ? info.recordings : 0,
    rerecordings:
      typeof info?.rerecordings === 'number' ? info.rerecordings : 0,
    fastPathMissed: info?.fast_path_missed ?? null
  };
  const hasData =
    s.skipReason !== null ||
    s.partitions.length ||
    s.skips.length ||
    s.recordings ||
    s.rerecordings ||
    s.fastPathMissed;
  return hasData ? s : null;
}

export function cudaGraphSections(doc: TcxDocument): CudaGraphSection[] {
  const sections = doc.compiles.map(c =>
    section(c.id, c.cudagraphs, c.metrics?.cudagraph_skip_reason)
  );
  sections.push(section('run time', doc.runtime?.cudagraphs, null));
  return sections.filter((s): s is CudaGraphSection => s !== null);
}
