/**
 * What makes two compiles, nodes, guards and kernels the same, and what is noise: spelled
 * step for step like tcexplore/docdiff/identity.py, whose docstring gives the reasons.
 * What is noise in torch's text (object ids, addresses, hashes, buffer numbers, FX's
 * numbering, a resume function's lines) capture masked and stored beside the text
 * (tcexplore/capture/parsers/identity.py): this reads those stored forms and parses no text.
 */

import { Compile, Guard, Kernel, Location, TcxDocument } from './types';

/** The document summary's keys, in tcexplore/document.py's order. */
const DOCUMENT_SUMMARY_KEYS = [
  'graphs',
  'graph_breaks',
  'recompiles',
  'output_codes',
  'kernels',
  'guards',
  'unmapped_nodes',
  'failures'
];

export type Labels = Record<string, string>;
type Loose = Record<string, unknown>;

/** A key part: null/undefined is empty, anything else its string. */
export function text(value: unknown): string {
  return value === null || value === undefined ? '' : String(value);
}

export function fileId(file: unknown, labels: Labels): string {
  if (typeof file !== 'string' || !file) {
    return '';
  }
  if (Object.prototype.hasOwnProperty.call(labels, file)) {
    return 'cell';
  }
  const parts = file.split('\\').join('/').split('/');
  return parts[parts.length - 1];
}

/** [exact, loose, across files] identity of a compile: loose leaves the frame's line out
 * (and a resume function's lines), across files its file too. */
export function compileKeys(
  record: Compile,
  labels: Labels
): [string, string, string] {
  const frame = (record.frame ?? {}) as Location;
  const fn = text(frame.function);
  const which = whichCompile(record);
  const exact = [fn, fileId(frame.file, labels), text(frame.line), which].join(
    '\x00'
  );
  // a resume function's name with its lines masked, as capture stored it
  const unmoved = record.unmoved_function ?? fn;
  return [
    exact,
    [unmoved, fileId(frame.file, labels), which].join('\x00'),
    `${unmoved}\x00${which}`
  ];
}

/** Which compile of its frame: the document's count, else (an older document) torch's. */
function whichCompile(record: Compile): string {
  const index = record.frame_compile_index;
  if (typeof index === 'number') {
    return [
      record.compiled_autograd_id === null ||
      record.compiled_autograd_id === undefined
        ? ''
        : '!',
      String(index)
    ].join('\x00');
  }
  return [
    text(record.compiled_autograd_id),
    text(record.frame_compile_id)
  ].join('\x00');
}

export function frameFile(record: Compile): unknown {
  return ((record.frame ?? {}) as Location).file;
}

/** `labels` with the compile's frame file counted as labelled: within a pair across files
 * both frames' files are then the same file to `fileId`. */
export function asOneFile(record: Compile, labels: Labels): Labels {
  const file = frameFile(record);
  return typeof file === 'string' && file
    ? { ...labels, [file]: 'paired' }
    : labels;
}

export function nodeTarget(node: Loose): string {
  const target = text(node.target);
  return node.op === 'placeholder' && typeof node.target_key === 'string'
    ? node.target_key
    : target;
}

export function sourceId(source: unknown, labels: Labels): string {
  if (!source || typeof source !== 'object' || Array.isArray(source)) {
    return '';
  }
  const loc = source as Location;
  const where = fileId(loc.file, labels);
  if (typeof loc.code === 'string' && loc.code) {
    return `${where}\x00${loc.code}`;
  }
  return `${where}\x00${text(loc.line)}`;
}

export function nodeKey(node: Loose, labels: Labels): string {
  return [text(node.op), nodeTarget(node), sourceId(node.source, labels)].join(
    '\x00'
  );
}

export function guardKey(guard: Guard): string {
  const masked = guard.masked;
  return [
    text(guard.type),
    masked ? masked.source : text(guard.source),
    masked ? masked.expression : text(guard.expression)
  ].join('\x00');
}

/** The kernel's source as compared; `rename` maps this side's graph names to the other's. */
export function kernelText(
  kernel: Kernel,
  rename: Map<string, string> | null = null
): string {
  if (kernel.kind === 'extern' && Array.isArray(kernel.tokens)) {
    return kernel.tokens
      .map(t => (t.name && rename ? (rename.get(t.text) ?? t.text) : t.text))
      .join('');
  }
  let source = text(kernel.source);
  const name = text(kernel.name);
  if (name) {
    source = source.split(name).join('<kernel>');
  }
  // longest first: a hash inside a longer hex run is that run's
  for (const hash of [...(kernel.hashes ?? [])].sort(
    (a, b) => b.length - a.length
  )) {
    source = source.split(hash).join('<hash>');
  }
  return source;
}

/** Which document this is: its id, or its creation time and counts. */
export function documentKey(doc: TcxDocument): string {
  const raw = doc as unknown as Loose;
  if (typeof raw.id === 'string' && raw.id) {
    return raw.id;
  }
  const summary = (doc.summary ?? {}) as Loose;
  return `${text(doc.created)}|${DOCUMENT_SUMMARY_KEYS.map(k => text(summary[k])).join(',')}`;
}
