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
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { AppError } from '../src/shared/errors';
import { wholeDecodeTime, type WholeDecodeTime } from '../src/shared/posteriorReport';
import type { DecodeSummary } from '../src/main/engineProtocol/runFolder';
import { recordingFile } from './peer/peerData';
import { median, printColumns } from './table';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const RATIO_TARGET = 1.5;
const RSS_TARGET_BYTES = 2 * 2 ** 30;

export function wantsWholeDecode(argv: string[]): boolean {
  return argv.includes('--whole-decode');
}

function options(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      'whole-decode': { type: 'boolean', default: false },
      'decode-last': { type: 'string', default: '0.05' },
      repeats: { type: 'string', default: '3' },
      model: { type: 'string', default: 'detector' },
      'cache-dir': { type: 'string', default: join(tmpdir(), 'kde-profiler-bench') },
      out: { type: 'string', default: 'bench/results/whole-decode.json' },
    },
  });
  const decodeLast = Number(values['decode-last']);
  if (!(decodeLast > 0 && decodeLast <= 1)) throw new AppError('BAD_ARGUMENT', `--decode-last must be in (0, 1], got ${values['decode-last']}.`);
  const repeats = Number(values.repeats);
  if (!Number.isInteger(repeats) || repeats < 1) throw new AppError('BAD_ARGUMENT', `--repeats: expected a whole number ≥ 1, got ${values.repeats}.`);
  if (values.model !== 'detector' && values.model !== 'decoder') throw new AppError('BAD_ARGUMENT', `--model: detector or decoder, got ${values.model}.`);
  return { decodeLast, repeats, model: values.model, cacheDir: values['cache-dir']!, out: values.out! };
}

interface Repeat extends WholeDecodeTime {
  wallMs: number;
  peakRssBytes: number;
}

/** One `kde-profiler decode` of the file in its own process; its times from the decode.json it wrote. */
function decodeOnce(file: string, model: string): Repeat {
  const outDir = mkdtempSync(join(tmpdir(), 'kde-whole-decode-'));
  try {
    const started = performance.now();
    const r = spawnSync(process.execPath, ['bin/kde-profiler.mjs', 'decode', '--data', file, '--model', model, '--out', join(outDir, 'out'),
      '--runs-dir', join(outDir, 'runs')], { cwd: REPO_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const wallMs = performance.now() - started;
    if (r.status !== 0) throw new AppError('RUN_FAILED', `kde-profiler decode --model ${model} on ${file} failed (exit ${r.status}): ${r.stderr.trim().split('\n').at(-1)}`);
    const s = JSON.parse(readFileSync(join(outDir, 'out', 'decode.json'), 'utf8')) as DecodeSummary;
    const p = s.posterior;
    if (!p) throw new AppError('BUG', `decode.json of ${file} has no posterior though --model ${model} was given`);
    return { wallMs, ...wholeDecodeTime(s.decodeMs, p), peakRssBytes: s.peakRssBytes };
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

export async function runWholeDecodeBench(argv: string[]): Promise<void> {
  const o = options(argv);
  const file = recordingFile(o.decodeLast, { cacheDir: o.cacheDir, python: 'python3', referenceTool: '', repoRoot: REPO_ROOT });
  const repeats: Repeat[] = [];
  for (let i = 0; i < o.repeats; i++) {
    process.stderr.write(`whole decode ${i + 1}/${o.repeats} (--model ${o.model}, ${file})…\n`);
    repeats.push(decodeOnce(file, o.model));
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
