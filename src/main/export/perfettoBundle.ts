/**
 * Several runs' traces as one Perfetto archive (`export … --format perfetto-bundle`): a ZIP with
 * each run's Chrome trace as a member of its own and a perfetto_manifest.json (the Trace
 * Processor's manifest, version 1) that makes each run a machine of its own and pins every trace to
 * the first one's timeline with a known offset, so ui.perfetto.dev opens the archive as one merged
 * timeline with no dialog. Chrome JSON has no absolute clock: each trace is pinned ("clocks"
 * without a source clock) rather than related. The runs' identity and settings travel as manifest
 * attributes (`manifest_attribute.kde_profiler.*` rows of Perfetto's metadata table).
 */
import { strToU8, zipSync } from 'fflate';
import type { BundleAlignment, RunDetail } from '../../shared/api';
import { AppError } from '../../shared/errors';

export const PERFETTO_MANIFEST_FILE = 'perfetto_manifest.json';

export interface BundleRun {
  runId: string;
  /** the run's Chrome trace, plain JSON */
  trace: Uint8Array;
  /** the machine the run shows as in Perfetto; unique in the bundle */
  machine: string;
  /** ms since the epoch at the trace's zero (the run's creation time) */
  startedAtMs: number;
  /** attributes of the run, each a manifest attribute `kde_profiler.<runId>.<key>` */
  attributes: Record<string, string | number>;
}

/** the member holding a run's trace: short (the UI's archives limit names to 99 characters) and unique */
export function bundleMemberName(runId: string): string {
  return `${runId}.json`;
}

function nonEmpty(attributes: Record<string, string | number | undefined>): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(attributes)) if (v !== undefined && v !== '') out[k] = v;
  return out;
}

/** What a run brings to a bundle, from its detail as the service gives it, and its trace. */
export function bundleRunOf(detail: RunDetail, trace: Uint8Array): BundleRun {
  const { entry, config, report } = detail;
  const strategies = report ? report.strategies.map((s) => `${s.strategy} ${s.total ? `${s.total.medianMs.toFixed(1)} ms` : s.status}`) : entry.strategies;
  return {
    runId: entry.id,
    trace,
    machine: [`run ${entry.id}`, entry.label ?? entry.dataset, entry.backend].join(' · '),
    startedAtMs: Date.parse(entry.createdAt),
    attributes: nonEmpty({
      created_at: entry.createdAt,
      status: entry.status,
      label: entry.label,
      dataset: entry.dataset,
      backend: report ? `${report.backend.name} (${report.backend.device})` : entry.backend,
      strategies: strategies.join(', '),
      repeats: config.repeats,
      workers: report?.workers,
      shard: report?.shard ? `${report.shard.index}/${report.shard.count} ${report.shard.by}` : undefined,
      fingerprint: report?.fingerprint,
      tool_version: report?.tool.version,
      host: report ? `${report.environment.platform} ${report.environment.arch}, ${report.environment.cpus} cpus, node ${report.environment.node}` : undefined,
    }),
  };
}

/** ns after the reference trace's zero at which each run's trace begins; the reference is the first run, or the earliest */
export function bundleOffsetsNs(runs: readonly BundleRun[], align: BundleAlignment): { reference: number; offsetsNs: number[] } {
  if (align === 'start') return { reference: 0, offsetsNs: runs.map(() => 0) };
  const reference = runs.reduce((best, r, i) => (r.startedAtMs < runs[best]!.startedAtMs ? i : best), 0);
  const zero = runs[reference]!.startedAtMs;
  return { reference, offsetsNs: runs.map((r) => Math.round((r.startedAtMs - zero) * 1e6)) };
}

export function perfettoManifest(runs: readonly BundleRun[], align: BundleAlignment = 'start'): Record<string, unknown> {
  const { reference, offsetsNs } = bundleOffsetsNs(runs, align);
  const referenceFile = bundleMemberName(runs[reference]!.runId);
  const files = runs.map((r, i) => {
    const file: Record<string, unknown> = { path: bundleMemberName(r.runId), machine: { name: r.machine } };
    if (i !== reference) file.clocks = { sync_to: { file: referenceFile }, offset_ns: offsetsNs[i] };
    return file;
  });
  const attributes: Record<string, string | number> = { 'kde_profiler.runs': runs.map((r) => r.runId).join(','), 'kde_profiler.align': align };
  for (const [i, r] of runs.entries()) {
    attributes[`kde_profiler.${r.runId}.offset_ns`] = offsetsNs[i]!;
    for (const [key, value] of Object.entries(r.attributes)) attributes[`kde_profiler.${r.runId}.${key}`] = value;
  }
  return { perfetto_manifest: { version: 1, files, attributes } };
}

/** The ZIP: the manifest first (Perfetto reads it first in any case), then one member per run. */
export function buildPerfettoBundle(runs: readonly BundleRun[], align: BundleAlignment = 'start'): Uint8Array {
  if (runs.length === 0) throw new AppError('BAD_ARGUMENT', 'a Perfetto bundle needs at least one run.');
  const names = new Set<string>();
  for (const r of runs) {
    if (names.has(r.runId)) throw new AppError('BAD_ARGUMENT', `run ${r.runId} is named twice: a bundle holds each run once.`, { key: r.runId });
    names.add(r.runId);
  }
  const members: Record<string, Uint8Array> = { [PERFETTO_MANIFEST_FILE]: strToU8(JSON.stringify(perfettoManifest(runs, align), null, 2)) };
  for (const r of runs) members[bundleMemberName(r.runId)] = r.trace;
  return zipSync(members, { level: 6, mtime: new Date(1980, 0, 1) });
}
