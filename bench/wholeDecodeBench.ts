/**
 * `npm run bench -- --whole-decode`: the detector's whole decode of the production window (the
 * recording of scripts/make-recording.ts with its defaults, decoding its last --decode-last
 * fraction), as a lab runs it: `kde-profiler decode --model detector`, one process per repeat.
 * Each repeat's non-local likelihood, local likelihood, filter and smoother come from its
 * decode.json; the table gives their medians, the whole decode's ratio to the likelihood alone
 * (the target: under 1.5×) and the peak RSS (the target: under 2 GiB).
 *
 *   npm run bench -- --whole-decode [--decode-last 0.05] [--repeats 3] [--model detector|decoder]
 *     [--cache-dir DIR] [--out bench/results/whole-decode.json]
 *
 * `--shape production-2d` decodes the open field shaped like non_local_detector's production data
 * instead (make-recording --open-field; wholeDecode2d.ts), each stage's time projected to the whole
 * recording, beside NLD on JAX on the same window and NLD's published A100 figures. One decode
 * takes minutes there, so by default it decodes once, the last 0.002 (a smaller window holds less
 * than a block of decoding spikes per electrode and projects high), with the decode's own memory
 * budget unless --memory-budget-mb names one. NLD runs where KDE_PROFILER_NLD_SRC and
 * KDE_PROFILER_NLD_PYTHON are set, --nld-repeats warm calls after its cold one, each stopped after
 * --nld-timeout-s.
 *
 *   npm run bench -- --whole-decode --shape production-2d [--decode-last 0.002] [--repeats 1]
 *     [--memory-budget-mb MB] [--nld-repeats 1] [--nld-timeout-s 1800] [--out bench/results/whole-decode-2d.json]
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { PosteriorModel } from '../src/shared/config';
import { AppError } from '../src/shared/errors';
import { recordingFile } from './peer/peerData';
import { median, printColumns } from './table';
import { runProductionTwoD } from './wholeDecode2d';
import { decodeOnce, type Repeat } from './wholeDecodeRun';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const RATIO_TARGET = 1.5;
const RSS_TARGET_BYTES = 2 * 2 ** 30;

export function wantsWholeDecode(argv: string[]): boolean {
  return argv.includes('--whole-decode');
}

const SHAPES = ['production', 'production-2d'] as const;

function positiveNumber(flag: string, text: string | undefined): number {
  const n = Number(text);
  if (!(n > 0) || !Number.isFinite(n)) throw new AppError('BAD_ARGUMENT', `--${flag}: expected a positive number, got ${text}.`);
  return n;
}

function wholeNumber(flag: string, text: string | undefined, min: number): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < min) throw new AppError('BAD_ARGUMENT', `--${flag}: expected a whole number ≥ ${min}, got ${text}.`);
  return n;
}

function options(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      'whole-decode': { type: 'boolean', default: false },
      shape: { type: 'string', default: 'production' },
      'decode-last': { type: 'string' },
      repeats: { type: 'string' },
      model: { type: 'string', default: 'detector' },
      'cache-dir': { type: 'string', default: join(tmpdir(), 'kde-profiler-bench') },
      out: { type: 'string' },
      'memory-budget-mb': { type: 'string' },
      'nld-repeats': { type: 'string', default: '1' },
      'nld-timeout-s': { type: 'string', default: '1800' },
    },
  });
  const shape = values.shape as (typeof SHAPES)[number];
  if (!SHAPES.includes(shape)) throw new AppError('BAD_ARGUMENT', `--shape: ${SHAPES.join(' or ')}, got ${values.shape}.`);
  const twoD = shape === 'production-2d';
  const decodeLast = Number(values['decode-last'] ?? (twoD ? '0.002' : '0.05'));
  if (!(decodeLast > 0 && decodeLast <= 1)) throw new AppError('BAD_ARGUMENT', `--decode-last must be in (0, 1], got ${values['decode-last']}.`);
  const repeats = wholeNumber('repeats', values.repeats ?? (twoD ? '1' : '3'), 1);
  if (values.model !== 'detector' && values.model !== 'decoder') throw new AppError('BAD_ARGUMENT', `--model: detector or decoder, got ${values.model}.`);
  const model: PosteriorModel = values.model;
  const out = values.out ?? (twoD ? 'bench/results/whole-decode-2d.json' : 'bench/results/whole-decode.json');
  const budget = values['memory-budget-mb'];
  const memoryBudgetMb = budget === undefined ? null : positiveNumber('memory-budget-mb', budget);
  return {
    shape, decodeLast, repeats, model, cacheDir: values['cache-dir']!, out, memoryBudgetMb,
    nldRepeats: wholeNumber('nld-repeats', values['nld-repeats'], 0), nldTimeoutS: positiveNumber('nld-timeout-s', values['nld-timeout-s']),
  };
}

export async function runWholeDecodeBench(argv: string[]): Promise<void> {
  const { shape, ...o } = options(argv);
  if (shape === 'production-2d') return runProductionTwoD(o, REPO_ROOT);
  const flags = o.memoryBudgetMb === null ? [] : ['--memory-budget-mb', String(o.memoryBudgetMb)];
  const file = recordingFile(o.decodeLast, { cacheDir: o.cacheDir, python: 'python3', referenceTool: '', repoRoot: REPO_ROOT });
  const repeats: Repeat[] = [];
  for (let i = 0; i < o.repeats; i++) {
    process.stderr.write(`whole decode ${i + 1}/${o.repeats} (--model ${o.model}, ${file})…\n`);
    repeats.push(decodeOnce({ file, model: o.model, repoRoot: REPO_ROOT, flags }));
  }
  const med = (f: (r: Repeat) => number) => median(repeats.map(f));
  const s = (msValue: number) => (msValue / 1000).toFixed(2);
  printColumns(`whole decode (--model ${o.model}), production window (--decode-last ${o.decodeLast}), medians of ${o.repeats} processes`,
    ['likelihood s', 'local s', 'filter + smoother s', 'whole s', '× likelihood', 'peak RSS GiB', 'process wall s'],
    [[s(med((r) => r.likelihoodMs)), s(med((r) => r.localMs)), s(med((r) => r.posteriorMs)), s(med((r) => r.wholeMs)), med((r) => r.ratio).toFixed(2),
      (Math.max(...repeats.map((r) => r.peakRssBytes)) / 2 ** 30).toFixed(2), s(med((r) => r.wallMs))]]);
  const ratio = med((r) => r.ratio);
  const rss = Math.max(...repeats.map((r) => r.peakRssBytes));
  console.log(`ratios per repeat: ${repeats.map((r) => r.ratio.toFixed(2)).join(', ')}`);
  console.log(`target: whole decode < ${RATIO_TARGET}× the likelihood alone: ${ratio < RATIO_TARGET ? 'met' : 'NOT met'} (${ratio.toFixed(2)}×); ` +
    `peak RSS < 2 GiB: ${rss < RSS_TARGET_BYTES ? 'met' : 'NOT met'}`);
  mkdirSync(dirname(resolve(REPO_ROOT, o.out)), { recursive: true });
  writeFileSync(resolve(REPO_ROOT, o.out), JSON.stringify({ file, options: o, repeats }, null, 2));
  console.log(`saved ${o.out}`);
}
