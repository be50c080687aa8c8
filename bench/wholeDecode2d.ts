/**
 * `npm run bench -- --whole-decode --shape production-2d`: the detector's whole decode of a window
 * of the open-field recording shaped like non_local_detector's production data (make-recording
 * --open-field), per stage: the median time on the window, the whole recording's time projected
 * from it (decode.json's projection) and the engine's memory; beside it NLD on JAX on the same
 * window where KDE_PROFILER_NLD_SRC and KDE_PROFILER_NLD_PYTHON say where it is, and NLD's own
 * figures for its production data on an A100, which were published, not measured here.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { formatBytes, formatMs } from '../src/shared/format';
import { projectedTotalMs, type RecordingProjection } from '../src/shared/projection';
import type { PosteriorModel } from '../src/shared/config';
import { OPEN_FIELD_DEFAULTS } from '../src/main/data/presets/openField';
import { runNldWholeDecode, type NldWholeDecode } from './peer/nldWholeDecode';
import { recordingFile } from './peer/peerData';
import { median, printColumns } from './table';
import { decodeOnce, type Repeat, type StageName } from './wholeDecodeRun';

export interface TwoDOptions {
  decodeLast: number;
  repeats: number;
  model: PosteriorModel;
  cacheDir: string;
  out: string;
  /** passed to the decode as --memory-budget-mb; null: the decode's own default */
  memoryBudgetMb: number | null;
  nldRepeats: number;
  nldTimeoutS: number;
}

/**
 * non_local_detector's figures for its production data (22 tetrodes, 4-D marks, 3 420 bins, 709 k
 * time bins) on one 80 GB A100, from its own plans (docs/plans/2026-04-20-clusterless-gpu-optimization-redesign.md)
 * and issue thread: published, not measured here.
 */
export const NLD_PUBLISHED_A100 = {
  predictS: [83, 85],
  compileS: [137, 168],
  peakGb: 33,
  estimatedGb: 7.5,
} as const;

const NLD_SRC_ENV = 'KDE_PROFILER_NLD_SRC';
const NLD_PYTHON_ENV = 'KDE_PROFILER_NLD_PYTHON';

const seconds = (ms: number) => (ms / 1000).toFixed(2);
const gib = (bytes: number) => (bytes / 2 ** 30).toFixed(2);

function shapeLine(): string {
  const f = OPEN_FIELD_DEFAULTS;
  return `${f.electrodes} tetrodes, ${f.features} marks, ${f.arena.widthCm} × ${f.arena.heightCm} cm at 2 cm bins, ` +
    `${(f.durationS * f.positionHz).toLocaleString('en-US')} time bins (${f.durationS} s at ${f.positionHz} Hz), ${f.spikes.toLocaleString('en-US')} spikes`;
}

/** One stage's row: its median on the window, the projected whole recording, the engine's RSS at its peak and its growth in it. */
function stageRow(label: string, repeats: Repeat[], stage: StageName, window?: (r: Repeat) => number, whole?: (p: RecordingProjection) => number): string[] {
  const projections = whole ? repeats.flatMap((r) => (r.projection ? [whole(r.projection)] : [])) : [];
  const memory = repeats.flatMap((r) => (r.stageMemory?.[stage] ? [r.stageMemory[stage]] : []));
  return [
    label,
    window ? seconds(median(repeats.map(window))) : '–',
    projections.length > 0 ? formatMs(median(projections)) : '–',
    memory.length > 0 ? gib(Math.max(...memory.map((m) => m.peakRssBytes))) : '–',
    memory.length > 0 ? gib(Math.max(...memory.map((m) => m.growthBytes))) : '–',
  ];
}

function printOurs(o: TwoDOptions, repeats: Repeat[]): void {
  const budget = o.memoryBudgetMb === null ? 'the default memory budget' : `--memory-budget-mb ${o.memoryBudgetMb}`;
  printColumns(`kde-profiler decode --model ${o.model} (${budget}), last ${o.decodeLast} of the open field, medians of ${repeats.length} process(es)`,
    ['stage', 'window s', 'whole recording (projected)', 'RSS at peak GiB', 'grew in stage GiB'],
    [
      // the fit is not a stage of the decode's time, but its memory stays for the stages after it
      stageRow('fit (not timed here)', repeats, 'fit'),
      stageRow('likelihood', repeats, 'likelihood', (r) => r.likelihoodMs, (p) => p.likelihoodMs),
      stageRow('local', repeats, 'local', (r) => r.localMs, (p) => p.localMs),
      stageRow('filter + smoother', repeats, 'posterior', (r) => r.posteriorMs, (p) => p.posteriorMs),
      ['whole', seconds(median(repeats.map((r) => r.wholeMs))), wholeProjection(repeats), gib(Math.max(...repeats.map((r) => r.peakRssBytes))), '–'],
    ]);
  printWindow(repeats[0]!);
  const p = repeats.find((r) => r.projection)?.projection;
  if (p?.peakRssBytes) console.log(`peak memory over the whole recording, projected: ${formatBytes(p.peakRssBytes.projected)} (this window: ${formatBytes(p.peakRssBytes.measured)})`);
  for (const r of repeats) {
    if (r.failure) console.log(`note: ${r.failure}; its times above come from the decode.json it wrote first`);
    if (r.marginalLogLikelihood === null) console.log('note: that decode\'s posterior came out NaN (log marginal likelihood NaN): its times stand, its posterior does not');
  }
}

/** What the window held, and why a window with less than a block per electrode projects high. */
function printWindow(r: Repeat): void {
  const w = r.window;
  if (!w) return;
  const perElectrode = w.decodingSpikes / w.electrodes;
  console.log(`the window: ${w.rows.toLocaleString('en-US')} rows, ${w.decodingSpikes.toLocaleString('en-US')} decoding spikes on ${w.electrodes} electrodes ` +
    `(${perElectrode.toFixed(0)} each), taken in blocks of ${w.blockSize}`);
  if (perElectrode < w.blockSize) {
    console.log('  less than a block per electrode: the work per block (for streaming, the position kernel of every encoding spike) ' +
      'is paid in full for a part-filled one, so the projection overstates the likelihood; a larger --decode-last projects closer');
  }
}

function wholeProjection(repeats: Repeat[]): string {
  const ps = repeats.flatMap((r) => (r.projection ? [r.projection] : []));
  if (ps.length === 0) return '–';
  const ci = ps[0]!.totalCi95;
  return `${formatMs(median(ps.map(projectedTotalMs)))}${ci ? ` (95 % ${formatMs(ci[0])}–${formatMs(ci[1])})` : ''}`;
}

function printNld(nld: NldWholeDecode | string, rowsScale: number | undefined): void {
  console.log('\nnon_local_detector (NLD) on JAX, the same window:');
  if (typeof nld === 'string') return void console.log(`  not run: ${nld}`);
  if (!nld.ok) return void console.log(`  ${nld.refused ? 'NLD refused' : 'NLD failed'}: ${nld.reason}`);
  const warmPredict = nld.warm.length > 0 ? median(nld.warm.map((c) => c.predictMs)) : undefined;
  const warmFit = nld.warm.length > 0 ? median(nld.warm.map((c) => c.fitMs)) : undefined;
  printColumns(`${nld.engine} on ${nld.device} (JAX backend ${nld.backend})`,
    ['call', 'fit s', 'predict s', 'predict × recording rows'],
    [
      ['cold (compiling)', seconds(nld.cold.fitMs), seconds(nld.cold.predictMs), '–'],
      [`warm (median of ${nld.warm.length})`, warmFit === undefined ? '–' : seconds(warmFit), warmPredict === undefined ? '–' : seconds(warmPredict),
        warmPredict === undefined || rowsScale === undefined ? '–' : formatMs(warmPredict * rowsScale)],
    ]);
  console.log(`  peak RSS of NLD's process tree: ${gib(nld.peakRssBytes)} GiB. Its predict scaled by rows overstates the whole recording: ` +
    'its position kernels (encoding spikes × bins) do not grow with the window.');
}

function printPublished(): void {
  const n = NLD_PUBLISHED_A100;
  console.log(`\nNLD's published figures for its production data on one 80 GB A100 (published, not measured here): ` +
    `${n.predictS[0]}–${n.predictS[1]} s per predict after ${n.compileS[0]}–${n.compileS[1]} s of compilation, ` +
    `peak ${n.peakGb} GB against an estimate of ${n.estimatedGb} GB.`);
}

async function nldSide(o: TwoDOptions, file: string, repoRoot: string): Promise<NldWholeDecode | string> {
  const src = process.env[NLD_SRC_ENV];
  const python = process.env[NLD_PYTHON_ENV];
  if (!src || !python) return `set ${NLD_SRC_ENV} (NLD's src/ folder) and ${NLD_PYTHON_ENV} (a Python with JAX) to run it beside`;
  process.stderr.write(`NLD's whole decode (nld:${o.model}, ${o.nldRepeats} warm call(s) after the cold one)…\n`);
  return runNldWholeDecode({ file, model: o.model, src, python, repeats: o.nldRepeats, warmup: 0, timeoutMs: o.nldTimeoutS * 1000, repoRoot });
}

export async function runProductionTwoD(o: TwoDOptions, repoRoot: string): Promise<void> {
  const file = recordingFile(o.decodeLast, { cacheDir: o.cacheDir, python: 'python3', referenceTool: '', repoRoot }, 'open-field');
  const flags = o.memoryBudgetMb === null ? [] : ['--memory-budget-mb', String(o.memoryBudgetMb)];
  const repeats: Repeat[] = [];
  const failures: string[] = [];
  for (let i = 0; i < o.repeats; i++) {
    process.stderr.write(`whole decode ${i + 1}/${o.repeats} (--model ${o.model}, ${file})…\n`);
    try {
      repeats.push(decodeOnce({ file, model: o.model, repoRoot, flags, stageMemory: true, keepPartial: true }));
    } catch (e) {
      failures.push(e instanceof Error ? e.message : String(e));
    }
  }
  console.log(`\nproduction-2d: the open field of make-recording --open-field: ${shapeLine()}`);
  if (repeats.length > 0) printOurs(o, repeats);
  for (const f of failures) console.log(`our decode failed: ${f}`);
  const p = repeats.find((r) => r.projection)?.projection;
  const nld = await nldSide(o, file, repoRoot);
  printNld(nld, p ? p.recordingRows / p.decodedRows : undefined);
  printPublished();
  mkdirSync(dirname(resolve(repoRoot, o.out)), { recursive: true });
  writeFileSync(resolve(repoRoot, o.out), JSON.stringify({ shape: 'production-2d', file, options: o, repeats, failures, nld, nldPublishedA100: NLD_PUBLISHED_A100 }, null, 2));
  console.log(`saved ${o.out}`);
}
