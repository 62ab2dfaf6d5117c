import { Compile, SCHEMA, TcxDocument } from './types';

export type Checked =
  { ok: true; doc: TcxDocument } | { ok: false; message: string };

function list<T>(value: unknown): T[] {
  return Array.isArray(value) ? (value as T[]) : [];
}

function record<T>(value: unknown): Record<string, T> {
  return value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, T>)
    : {};
}

function normalizeCompile(raw: unknown, index: number): Compile {
  const c = record<unknown>(raw);
  return {
    ...(c as object),
    id: typeof c.id === 'string' ? c.id : `#${index}`,
    status: typeof c.status === 'string' ? c.status : 'unknown',
    guards: list(c.guards),
    recompile_reasons: list<unknown>(c.recompile_reasons).map(g => list(g)),
    aot_graphs: record(c.aot_graphs),
    post_grad_graphs: list(c.post_grad_graphs),
    output_codes: list(c.output_codes),
    phases: list(c.phases)
  } as Compile;
}

/**
 * Checks the schema version before anything else reads the document: a newer
 * "tcexplore/N" gets a message naming both versions; containers the views iterate
 * are made arrays/objects so a partial document never throws.
 */
export function checkDocument(data: unknown): Checked {
  if (!data || typeof data !== 'object' || Array.isArray(data)) {
    return {
      ok: false,
      message: 'This output is not a tcexplore document (not a JSON object).'
    };
  }
  const raw = data as Record<string, unknown>;
  const schema = raw.schema;
  if (schema !== SCHEMA) {
    const match =
      typeof schema === 'string' ? /^tcexplore\/(\d+)$/.exec(schema) : null;
    if (match && Number(match[1]) > 1) {
      return {
        ok: false,
        message:
          `This output was written by a newer tcexplore (document schema "${schema}"); ` +
          `this extension reads "${SCHEMA}". Upgrade the tcexplore package ` +
          '(pip install -U tcexplore) and reload JupyterLab to explore it.'
      };
    }
    return {
      ok: false,
      message: `This output is not a tcexplore document it can read (schema ${JSON.stringify(
        schema ?? null
      )}; expected "${SCHEMA}").`
    };
  }
  const doc = {
    ...(raw as object),
    summary: record<number>(raw.summary),
    compiles: list<unknown>(raw.compiles).map(normalizeCompile),
    graph_breaks: list(raw.graph_breaks),
    findings: Array.isArray(raw.findings)
      ? raw.findings.filter(
          f => f && typeof f === 'object' && typeof f.title === 'string'
        )
      : undefined
  } as TcxDocument;
  return { ok: true, doc };
}
