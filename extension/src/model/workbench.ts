/**
 * "Open as cell": the reproducer of a kernel is written by tcexplore in the notebook's
 * kernel (tcexplore/workbench/frontend.py, the one generator), from the output code this
 * output carries. This module builds that request, the Python statement that sends it, and
 * reads the reply. The request is data: the statement carries it as one JSON string literal.
 */

import { TcxDocument } from './types';

export const OPEN_AS_CELL = 'tcexplore:open-kernel-as-cell';
export const REPLY_MARK = 'tcexplore-reproducer:';

/** What the kernel needs to write one kernel's reproducer (JSON). */
export interface KernelRequest {
  [key: string]: unknown;
  compile_id: string;
  output: {
    kind: string;
    text: string;
    truncated: boolean;
    kernels: unknown[];
    custom_ops: unknown[];
  };
  kernel: number;
  environment: Record<string, unknown>;
}

export function kernelRequest(
  doc: TcxDocument,
  compile: number,
  output: number,
  kernel: number
): KernelRequest {
  const record = doc.compiles[compile];
  const code = record.output_codes[output] as unknown as Record<
    string,
    unknown
  >;
  return {
    compile_id: record.id,
    output: {
      kind: String(code.kind ?? 'unknown'),
      text: String(code.text ?? ''),
      truncated: Boolean(code.truncated),
      kernels: record.output_codes[output].kernels,
      custom_ops: record.output_codes[output].custom_ops ?? []
    },
    kernel,
    environment: doc.environment ?? {}
  };
}

/** One Python expression statement: JSON.stringify of a string is a valid Python string literal. */
export function reproducerStatement(request: KernelRequest): string {
  return `__import__("tcexplore.workbench.frontend", fromlist=["print_reproducer"]).print_reproducer(${JSON.stringify(JSON.stringify(request))})`;
}

/** The reproducer's text from what the statement printed, or an Error with tcexplore's message. */
export function parseReply(stdout: string): string {
  const line = stdout.split('\n').find(l => l.startsWith(REPLY_MARK));
  if (!line) {
    throw new Error(
      `tcexplore gave no reproducer${stdout.trim() ? `: ${stdout.trim().slice(0, 300)}` : ''}`
    );
  }
  const reply = JSON.parse(line.slice(REPLY_MARK.length)) as {
    cell?: unknown;
    error?: unknown;
  };
  if (typeof reply.cell === 'string') {
    return reply.cell;
  }
  throw new Error(String(reply.error ?? 'tcexplore gave no reproducer'));
}
