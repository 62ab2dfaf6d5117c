/**
 * The graph and node diff of two paired compiles, step for step as
 * tcexplore/docdiff/graphs.py: graphs paired by what they are (dynamo, aot:<kind>,
 * post:<output code>), nodes aligned by their keys, and each kept pair's renaming (a's node
 * name -> b's) for the kernel diff.
 */

import { matches, rows } from './align';
import { GraphDiff, Loose, NodeChange, NodeView, orNull } from './difftypes';
import { Labels, nodeKey, nodeTarget, sourceId, text } from './identity';
import { Compile } from './types';

const AOT_KINDS = ['forward', 'backward', 'inference'];

export function outputIds(record: Compile): string[] {
  const seen = new Map<string, number>();
  return (record.output_codes ?? []).map(output => {
    const kind = text(output.kind);
    const id = seen.has(kind) ? `${kind}#${seen.get(kind)}` : kind;
    seen.set(kind, (seen.get(kind) ?? 0) + 1);
    return id;
  });
}

export function postGradIds(record: Compile): string[] {
  const outputs = record.output_codes ?? [];
  const ids = outputIds(record);
  const found: string[] = [];
  (record.post_grad_graphs ?? []).forEach((_, index) => {
    const n = outputs.findIndex(o => o.post_grad_graph === index);
    const owner = n >= 0 ? ids[n] : `#${index}`;
    found.push(found.includes(owner) ? `#${index}` : owner);
  });
  return found;
}

function graphsOf(record: Compile): Map<string, [string, Loose]> {
  const found = new Map<string, [string, Loose]>();
  if (record.dynamo_graph && typeof record.dynamo_graph === 'object') {
    found.set('dynamo', ['dynamo', record.dynamo_graph]);
  }
  const aot = (record.aot_graphs ?? {}) as Loose;
  for (const kind of AOT_KINDS) {
    if (aot[kind] && typeof aot[kind] === 'object') {
      found.set(`aot:${kind}`, [`aot:${kind}`, aot[kind]]);
    }
  }
  const ids = postGradIds(record);
  (record.post_grad_graphs ?? []).forEach((graph, index) =>
    found.set(`post:${ids[index]}`, [`post:${index}`, graph])
  );
  return found;
}

export function graphs(
  x: Compile,
  y: Compile,
  la: Labels,
  lb: Labels
): { entries: GraphDiff[]; renames: Map<string, Map<string, string>> } {
  const ga = graphsOf(x);
  const gb = graphsOf(y);
  const entries: GraphDiff[] = [];
  const renames = new Map<string, Map<string, string>>();
  for (const ident of [
    ...ga.keys(),
    ...[...gb.keys()].filter(k => !ga.has(k))
  ]) {
    const [keyA, graphA]: [string | null, Loose] = ga.get(ident) ?? [null, {}];
    const [keyB, graphB]: [string | null, Loose] = gb.get(ident) ?? [null, {}];
    const {
      entries: found,
      rename,
      approximate
    } = nodes(graphA.nodes ?? [], graphB.nodes ?? [], la, lb);
    renames.set(ident, rename);
    entries.push({ graph: ident, a: keyA, b: keyB, approximate, nodes: found });
  }
  return { entries, renames };
}

function nodeView(node: Loose): NodeView {
  const meta =
    node.meta && typeof node.meta === 'object' && !Array.isArray(node.meta)
      ? node.meta
      : {};
  const source = node.source;
  return {
    name: orNull(node.name),
    op: orNull(node.op),
    target: orNull(node.target),
    args: [...(node.args ?? [])],
    shape: Array.isArray(meta.shape) ? meta.shape : null,
    dtype: typeof meta.dtype === 'string' ? meta.dtype : null,
    source:
      source && typeof source === 'object' && !Array.isArray(source)
        ? {
            file: orNull(source.file),
            line: orNull(source.line),
            function: orNull(source.function),
            code: orNull(source.code)
          }
        : null
  };
}

function sameList(x: unknown[] | null, y: unknown[] | null): boolean {
  if (x === null || y === null) {
    return x === y;
  }
  return x.length === y.length && x.every((v, k) => v === y[k]);
}

function nodeChanges(
  x: Loose,
  y: Loose,
  rename: Map<string, string>,
  la: Labels,
  lb: Labels
): NodeChange['changes'] {
  const vx = nodeView(x);
  const vy = nodeView(y);
  const changes: NodeChange['changes'] =
    nodeTarget(x) !== nodeTarget(y) ? ['target'] : [];
  if (!sameList(vx.shape, vy.shape)) {
    changes.push('shape');
  }
  if (vx.dtype !== vy.dtype) {
    changes.push('dtype');
  }
  if (sourceId(x.source, la) !== sourceId(y.source, lb)) {
    changes.push('source');
  }
  if (
    !sameList(
      vx.args.map(arg => rename.get(arg) ?? null),
      vy.args
    )
  ) {
    changes.push('inputs');
  }
  return changes;
}

function nodes(
  na: Loose[],
  nb: Loose[],
  la: Labels,
  lb: Labels
): {
  entries: NodeChange[];
  rename: Map<string, string>;
  approximate: boolean;
} {
  const { found, approximate } = matches(
    na.map(n => nodeKey(n, la)),
    nb.map(n => nodeKey(n, lb))
  );
  const aligned = rows(
    na.length,
    nb.length,
    found,
    (i, j) => na[i].op === nb[j].op
  );
  const rename = new Map<string, string>();
  for (const [i, j] of aligned) {
    if (i !== null && j !== null) {
      rename.set(text(na[i].name), text(nb[j].name));
    }
  }
  const entries: NodeChange[] = [];
  for (const [i, j] of aligned) {
    if (i === null || j === null) {
      entries.push({
        status: i === null ? 'added' : 'removed',
        a: i === null ? null : nodeView(na[i]),
        b: j === null ? null : nodeView(nb[j]),
        changes: []
      });
      continue;
    }
    const changes = nodeChanges(na[i], nb[j], rename, la, lb);
    if (changes.length) {
      entries.push({
        status: 'changed',
        a: nodeView(na[i]),
        b: nodeView(nb[j]),
        changes
      });
    }
  }
  return { entries, rename, approximate };
}
