/**
 * What makes two compiles, nodes, guards and kernels the same, and what is noise: spelled
 * step for step like tcexplore/docdiff/identity.py, whose docstring gives the reasons.
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

const ID_CHECK = /(___check_(?:obj|type)_id\(.*?, )\d+\)/g;
const ADDRESS = /0x[0-9a-fA-F]+/g;
/** Dynamo's install_global: name_<counter>. */
const INSTALLED = /(G\['__\w*?_)\d+('\])/g;
const HASH = /\b[0-9a-fA-F]{32,}\b/g;
const BUFFER = /\bbuf\d+\b/g;
const NAME = /(?<![A-Za-z0-9_.])[A-Za-z_][A-Za-z0-9_]*/g;
const NUMBERED = /_\d+$/;
const AT_LINE = /_at_\d+$/;
/** Dynamo's name for the rest of a frame after a break. */
const RESUME_PREFIX = 'torch_dynamo_resume_in_';

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
  const unmoved = withoutLines(fn);
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

/** A function's name with the break lines a resume function's name embeds masked. */
function withoutLines(fn: string): string {
  const depth = fn.split(RESUME_PREFIX).length - 1;
  for (let i = 0; i < depth; i++) {
    fn = fn.replace(AT_LINE, '');
  }
  return fn;
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
  return node.op === 'placeholder' ? target.replace(NUMBERED, '') : target;
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
  const expression = text(guard.expression)
    .replace(ID_CHECK, '$1?)')
    .replace(ADDRESS, '0x?');
  return [
    text(guard.type),
    text(guard.source).replace(INSTALLED, '$1?$2'),
    expression.replace(INSTALLED, '$1?$2')
  ].join('\x00');
}

/** The kernel's source as compared; `rename` maps this side's graph names to the other's. */
export function kernelText(
  kernel: Kernel,
  rename: Map<string, string> | null = null
): string {
  let source = text(kernel.source);
  const name = text(kernel.name);
  if (name) {
    source = source.split(name).join('<kernel>');
  }
  source = source.replace(HASH, '<hash>');
  if (kernel.kind === 'extern') {
    source = source.replace(BUFFER, 'buf?');
    if (rename && rename.size) {
      source = source.replace(NAME, token => rename.get(token) ?? token);
    }
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
