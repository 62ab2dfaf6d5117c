/** The Overview tab: the stage pipeline and the findings that lead it. */

import { accuracyFinding } from './accuracy';
import { verdictLine } from './profile';
import { BreakSite, graphBreakAudit, RESUME_NAME } from './breaks';
import { cudaGraphSections, cudaGraphWarning } from './cudagraphs';
import { NO_PROVENANCE, unmappedReason } from './fusion';
import { ms, plural, firstLine, sourceLabels, where } from './format';
import { recompileRows } from './guards';
import { timingVerdict } from './timing';
import { notCompiledFinding, nothingCompiled, timingWhenNothingCompiled } from './notcompiled';
import { Location, Target, TcxDocument } from './types';

export type Severity = 'error' | 'warning' | 'info' | 'ok';

export interface Finding {
  severity: Severity;
  text: string;
  target?: Target;
  /** a graph-break finding: its site of the audit, all of it */
  site?: BreakSite;
  /** a recompile finding: the function and the guards that failed */
  recompiled?: RecompiledFunction;
}

/** One frame (function) compiled again, with every guard that failed and how often. */
export interface RecompiledFunction {
  function: string;
  frame: Location | null;
  count: number;
  compiles: Array<{ id: string; index: number }>;
  guards: Array<{ guard: string; count: number }>;
}

/** Recompiles grouped by frame (Dynamo's frame id), most recompiles first. */
export function recompiledFunctions(doc: TcxDocument): RecompiledFunction[] {
  const groups = new Map<string, RecompiledFunction & { first: number }>();
  doc.compiles.forEach((c, index) => {
    const rows = recompileRows(c);
    if (!rows.length) {
      return;
    }
    const frameId = c.id.split('/')[0];
    const entry = groups.get(frameId) ?? { function: c.frame?.function ?? '?', frame: c.frame ?? null, count: 0, compiles: [], guards: [], first: index };
    entry.count += c.recompile_reasons.length; // one group of failed guards per recompile
    entry.compiles.push({ id: c.id, index });
    for (const r of rows) {
      const seen = entry.guards.find(g => g.guard === r.guard);
      if (seen) {
        seen.count += 1;
      } else {
        entry.guards.push({ guard: r.guard, count: 1 });
      }
    }
    groups.set(frameId, entry);
  });
  return [...groups.values()]
    .sort((a, b) => b.count - a.count || a.first - b.first)
    .map(({ first: _first, ...g }) => ({ ...g, guards: g.guards.sort((a, b) => b.count - a.count) }));
}

export interface Stage {
  name: string;
  counts: string[];
  time?: string;
  /** false: the stage did nothing in this document (e.g. no CUDA graphs). */
  active: boolean;
}

function metric(metrics: Record<string, unknown> | null | undefined, key: string): number {
  const value = metrics?.[key];
  return typeof value === 'number' ? value : 0;
}

/**
 * Seconds each stage took, summed over compiles, the lazily compiled backward included:
 * Dynamo is the frame's compile time less the backend's, AOTAutograd the backend's less
 * Inductor's (backward: its whole compile less Inductor's).
 */
export function stageSeconds(doc: TcxDocument): { dynamo: number; aot: number; inductor: number } {
  let dynamo = 0;
  let aot = 0;
  let inductor = 0;
  for (const c of doc.compiles) {
    const fw = c.metrics;
    const bw = c.backward_metrics;
    dynamo += metric(fw, 'entire_frame_compile_time_s') - metric(fw, 'backend_compile_time_s');
    aot += metric(fw, 'backend_compile_time_s') - metric(fw, 'inductor_compile_time_s');
    aot += bw ? Math.max(0, metric(bw, 'backward_cumulative_compile_time_us') / 1e6 - metric(bw, 'inductor_compile_time_s')) : 0;
    inductor += metric(fw, 'inductor_compile_time_s') + metric(bw, 'inductor_compile_time_s');
  }
  return { dynamo, aot, inductor };
}

function aotCounts(doc: TcxDocument): string[] {
  const kinds: Record<string, number> = {};
  for (const c of doc.compiles) {
    for (const kind of Object.keys(c.aot_graphs)) {
      if (kind !== 'joint') {
        kinds[kind] = (kinds[kind] ?? 0) + 1;
      }
    }
  }
  const counts = Object.entries(kinds).map(([kind, n]) => plural(n, `${kind} graph`));
  return counts.length ? counts : ['no AOT graphs'];
}

export function pipeline(doc: TcxDocument): Stage[] {
  const s = doc.summary;
  const n = (key: string) => (typeof s[key] === 'number' ? s[key] : 0);
  const seconds = stageSeconds(doc);
  const time = (s: number) => (s > 0 ? ms(s * 1000) : undefined);
  const cuda = cudaGraphSections(doc);
  const perCompile = cuda.filter(c => c.compile !== 'run time');
  const skipped = perCompile.filter(c => c.skipReason !== null || c.skips.length > 0);
  return [
    {
      name: 'Dynamo',
      counts: [
        plural(n('graphs'), 'graph'),
        plural(n('graph_breaks'), 'graph break'),
        plural(n('recompiles'), 'recompile'),
        plural(n('guards'), 'guard')
      ],
      time: time(seconds.dynamo),
      active: n('graphs') > 0
    },
    {
      name: 'AOTAutograd',
      counts: aotCounts(doc),
      time: time(seconds.aot),
      active: doc.compiles.some(c => Object.keys(c.aot_graphs).length > 0)
    },
    {
      name: 'Inductor',
      counts: [
        plural(n('output_codes'), 'output code'),
        plural(n('kernels'), 'kernel'),
        plural(n('unmapped_nodes'), 'unmapped node')
      ],
      time: time(seconds.inductor),
      active: n('output_codes') > 0
    },
    {
      name: 'CUDA graphs',
      counts: cuda.length
        ? [plural(perCompile.length - skipped.length, 'graphed compile'), `${skipped.length} skipped`]
        : ['no CUDA-graph data'],
      active: perCompile.length > skipped.length
    }
  ];
}

function sourceTarget(file: string | null | undefined, line: number | null | undefined) {
  return file && typeof line === 'number' ? ({ tab: 'source', file, line } as Target) : undefined;
}

/**
 * Errors first, then warnings, then the good news: what a reader should look at. Graph
 * breaks come one per site of the audit (most events first), recompiles one per function.
 */
function adviceSentence(advice: string | undefined): string {
  return advice ? ` ${advice.charAt(0).toUpperCase()}${advice.slice(1)}.` : '';
}

/** Unmapped nodes, linked to the first output code that has some, with the reason if known. */
function unmappedFinding(doc: TcxDocument, unmapped: number): Finding {
  const outputs = doc.compiles.flatMap((c, compile) => (c.output_codes ?? []).map((o, output) => ({ o, target: { tab: 'fusion' as const, compile, output } })));
  const first = outputs.find(({ o }) => (o.unmapped_nodes ?? []).length);
  const unproven = outputs.filter(({ o }) => unmappedReason(o)).reduce((sum, { o }) => sum + o.unmapped_nodes.length, 0);
  const why = !unproven ? '' : unproven === unmapped
    ? `: ${NO_PROVENANCE}`
    : ` (${unproven} of them in output codes without torch's kernel → node mapping: INDUCTOR_PROVENANCE=1 records it)`;
  return { severity: 'warning', text: `${plural(unmapped, 'post-grad node')} mapped to no kernel${why}`, target: first?.target };
}

export function findings(doc: TcxDocument): Finding[] {
  const labels = sourceLabels(doc);
  const out: Finding[] = [];
  if (doc.error) {
    out.push({
      severity: 'error',
      text: `The captured code raised ${doc.error.type ?? 'an error'}: ${firstLine(doc.error.message)}`
    });
  }
  doc.compiles.forEach((c, i) => {
    if (c.status === 'failed') {
      out.push({
        severity: 'error',
        text: `Compile ${c.id} failed: ${c.error?.type ?? ''} ${firstLine(c.error?.message)}`.trim(),
        target: { tab: 'guards', compile: i }
      });
    }
  });
  const accuracy = accuracyFinding(doc);
  if (accuracy && accuracy.severity !== 'ok') {
    out.push(accuracy);
  }
  for (const site of graphBreakAudit(doc)) {
    const fn = site.function ? ` in ${site.function}` : '';
    out.push({
      severity: 'warning',
      text: `Graph break ×${site.count} at ${where(site, labels)}${fn}: ${site.reasons[0]?.message ?? ''}`,
      target: sourceTarget(site.file, site.line),
      site
    });
  }
  for (const r of recompiledFunctions(doc)) {
    const resumed = RESUME_NAME.exec(r.function);
    const at = resumed
      ? ` (the rest of ${resumed[1]} after its graph break${r.frame ? ` at ${where(r.frame, labels)}` : ''})`
      : r.frame ? ` (${where(r.frame, labels)})` : '';
    out.push({
      severity: 'warning',
      text: `${r.function}${at} recompiled ×${r.count}: ${r.guards[0]?.guard ?? ''}`,
      target: { tab: 'guards', compile: r.compiles[0].index },
      recompiled: r
    });
  }
  const unmapped = doc.summary.unmapped_nodes ?? 0;
  if (unmapped > 0) {
    out.push(unmappedFinding(doc, unmapped));
  }
  doc.compiles.forEach((c, i) => {
    const unsettled = c.without_capture_settings;
    if (unsettled) {
      const lacked = unsettled.settings.map(s => (s === 'provenance' ? 'provenance tracking off' : 'caches on')).join(', ');
      out.push({
        severity: 'warning',
        text: `Compile ${c.id} ran in thread ${unsettled.threads.join(', ')}, outside the capture's settings (${lacked}): open capture() in that thread too`,
        target: { tab: 'guards', compile: i }
      });
    }
  });
  for (const section of cudaGraphSections(doc)) {
    const warning = cudaGraphWarning(section);
    if (warning !== null) {
      out.push({
        severity: 'warning',
        text: `${firstLine(warning)} (${section.compile})`,
        target: { tab: 'cudagraphs' }
      });
    }
  }
  const skipped = notCompiledFinding(doc);
  if (skipped) {
    out.push(skipped);
  }
  const t = doc.timing;
  if (t) {
    const v = timingWhenNothingCompiled(doc, timingVerdict(t));
    const payback = nothingCompiled(doc)
      ? 'there is no compile to pay back'
      : t.break_even_calls === null
        ? 'compile time never pays back'
        : `compile time pays back after ${Math.ceil(t.break_even_calls)} calls`;
    out.push({
      severity: v.severity,
      text: [`${v.headline}; ${payback}.`, v.noise, v.advice].filter(Boolean).join(' '),
      target: { tab: 'timing' }
    });
  }
  if (doc.profile) {
    out.push({
      severity: 'info',
      text: `Where the time goes: ${verdictLine(doc.profile)}.${adviceSentence(doc.profile.step.advice[0])}`,
      target: { tab: 'profile' }
    });
  }
  if (accuracy?.severity === 'ok') {
    out.push(accuracy);
  }
  if (!out.some(f => f.severity === 'error' || f.severity === 'warning')) {
    out.push({ severity: 'ok', text: 'No graph breaks, recompiles or failed compiles.' });
  }
  const rank: Record<Severity, number> = { error: 0, warning: 1, info: 2, ok: 3 };
  return out.sort((a, b) => rank[a.severity] - rank[b.severity]);
}

export interface Origin {
  /** "captured live" or "read from the TORCH_TRACE log …", with the rank when there is one */
  line: string;
  partial: string | null;
  /** what the document's source does not record: unknown, not empty */
  unavailable: Array<{ field: string; reason: string }>;
}

export function origin(doc: TcxDocument): Origin {
  const capture = doc.capture ?? {};
  const env = doc.environment ?? {};
  const parts = [capture.source === 'trace' ? `read from the TORCH_TRACE log ${capture.path ?? ''}`.trim() : 'captured live'];
  const dist = doc.distributed;
  if (dist && typeof dist.rank === 'number') {
    parts.push(`rank ${dist.rank}${dist.world_size ? ` of ${dist.world_size}` : ''}${dist.backend ? ` (${dist.backend})` : ''}`);
  }
  parts.push(`torch ${String(env.torch ?? '?')}`);
  if (doc.created) {
    parts.push(`document made ${doc.created}`);
  }
  const unavailable = Array.isArray(capture.unavailable)
    ? capture.unavailable.filter(u => u && typeof u.field === 'string').map(u => ({ field: u.field, reason: String(u.reason ?? '') }))
    : [];
  return { line: parts.join(' · '), partial: typeof capture.partial === 'string' ? capture.partial : null, unavailable };
}
