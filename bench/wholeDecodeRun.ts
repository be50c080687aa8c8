/**
 * One whole decode as a lab runs it, `kde-profiler decode --model M`, in a process of its own: each
 * stage's time from the decode.json it wrote, and from its run's trace the engine's RSS as each
 * stage ended and how much it grew during the stage (the engine's memory is sampled from outside
 * through the run, and wasm memory once grown is not given back, so growth is what a stage adds).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppError } from '../src/shared/errors';
import type { RecordingProjection } from '../src/shared/projection';
import { wholeDecodeTime, type WholeDecodeTime } from '../src/shared/posteriorReport';
import type { DecodeSummary } from '../src/main/engineProtocol/runFolder';

/** the engine's spans for the fit and the three stages a whole decode times */
export const STAGE_SPANS = { fit: 'encode', likelihood: 'decode', local: 'local', posterior: 'posterior' } as const;
export type StageName = keyof typeof STAGE_SPANS;
const RSS_COUNTER = 'engine memory (MB)';

export interface StageMemory {
  /** the engine's RSS at the stage's fullest sampled point */
  peakRssBytes: number;
  /** that peak less the RSS sampled just before the stage began */
  growthBytes: number;
}

export interface Repeat extends WholeDecodeTime {
  wallMs: number;
  peakRssBytes: number;
  projection?: RecordingProjection;
  stageMemory?: Partial<Record<StageName, StageMemory>>;
  /** decode.json's log marginal likelihood: null where the posterior came out NaN */
  marginalLogLikelihood?: number | null;
  /** what the decoded window held, from decode.json's dataset summary */
  window?: { rows: number; decodingSpikes: number; electrodes: number; blockSize: number };
  /** set where the CLI exited non-zero after it had written decode.json (`keepPartial`) */
  failure?: string;
}

interface TraceEvent {
  ph?: string;
  name?: string;
  ts?: number;
  dur?: number;
  tid?: number;
  args?: Record<string, unknown>;
}

/** Each stage's peak and growth of the engine's RSS, from the single run the decode left in `runsDir`. */
export function stageMemoryOf(runsDir: string): Partial<Record<StageName, StageMemory>> {
  const run = readdirSync(runsDir, { withFileTypes: true }).find((d) => d.isDirectory());
  const events = run ? join(runsDir, run.name, 'events.ndjson') : '';
  if (!run || !existsSync(events)) return {};
  const spans = new Map<string, [number, number]>();
  const rss: [number, number][] = [];
  for (const line of readFileSync(events, 'utf8').split('\n')) {
    if (!line.startsWith('[')) continue;
    for (const e of JSON.parse(line) as TraceEvent[]) {
      if (e.ph === 'X' && e.tid === 1 && e.name && e.ts !== undefined && e.dur !== undefined) spans.set(e.name, [e.ts, e.ts + e.dur]);
      if (e.ph === 'C' && e.name === RSS_COUNTER && e.ts !== undefined && typeof e.args?.rss === 'number') rss.push([e.ts, e.args.rss * 2 ** 20]);
    }
  }
  rss.sort((a, b) => a[0] - b[0]);
  const out: Partial<Record<StageName, StageMemory>> = {};
  for (const [stage, span] of Object.entries(STAGE_SPANS) as [StageName, string][]) {
    const range = spans.get(span);
    if (!range) continue;
    const before = rss.filter(([t]) => t < range[0]).at(-1)?.[1] ?? 0;
    const inside = rss.filter(([t]) => t >= range[0] && t <= range[1]).map(([, b]) => b);
    if (inside.length === 0) continue;
    const peak = Math.max(...inside);
    out[stage] = { peakRssBytes: peak, growthBytes: Math.max(0, peak - before) };
  }
  return out;
}

export interface DecodeRequest {
  file: string;
  model: string;
  repoRoot: string;
  /** extra `kde-profiler decode` flags (--memory-budget-mb) */
  flags?: string[];
  /** read each stage's memory from the run's trace */
  stageMemory?: boolean;
  /** a CLI that exits non-zero after writing decode.json still gives its times, with the failure noted */
  keepPartial?: boolean;
}

/** One `kde-profiler decode` of the file in its own process; its times from the decode.json it wrote. */
export function decodeOnce(r: DecodeRequest): Repeat {
  const outDir = mkdtempSync(join(tmpdir(), 'kde-whole-decode-'));
  try {
    const started = performance.now();
    const child = spawnSync(process.execPath, ['bin/kde-profiler.mjs', 'decode', '--data', r.file, '--model', r.model, ...(r.flags ?? []),
      '--out', join(outDir, 'out'), '--runs-dir', join(outDir, 'runs')], { cwd: r.repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const wallMs = performance.now() - started;
    const summaryFile = join(outDir, 'out', 'decode.json');
    const why = `kde-profiler decode --model ${r.model} on ${r.file} failed (exit ${child.status}): ${child.stderr.trim().split('\n').at(-1)}`;
    if (child.status !== 0 && !(r.keepPartial && existsSync(summaryFile))) throw new AppError('RUN_FAILED', why);
    const s = JSON.parse(readFileSync(summaryFile, 'utf8')) as DecodeSummary;
    const p = s.posterior;
    if (!p) throw new AppError('BUG', `decode.json of ${r.file} has no posterior though --model ${r.model} was given`);
    return {
      wallMs, ...wholeDecodeTime(s.decodeMs, p), peakRssBytes: s.peakRssBytes,
      ...(s.projection ? { projection: s.projection } : {}),
      ...(r.stageMemory ? { stageMemory: stageMemoryOf(join(outDir, 'runs')) } : {}),
      marginalLogLikelihood: p.marginalLogLikelihood,
      window: { rows: s.dataset.nTime, decodingSpikes: s.dataset.nDecodingSpikes, electrodes: s.dataset.nElectrodes, blockSize: s.dataset.blockSize },
      ...(child.status !== 0 ? { failure: why } : {}),
    };
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}
