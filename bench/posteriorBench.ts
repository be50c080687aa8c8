/**
 * `npm run bench -- --posterior`: the filter + smoother per time bin for the decoder (N = P) and the
 * detector (N = 2P + 2) at several grid sizes P, ours `dense` and `structured` against a dense NumPy
 * implementation and non_local_detector's own jitted `core.filter` / `core.smoother` on JAX
 * (bench/peer/hmm_peer.py; NLD is skipped, saying why, when it cannot be imported), on the same
 * float32 inputs in one invocation. Medians of warm calls, µs per time bin, ratios to NLD.
 *
 *   npm run bench -- --posterior [--sizes 100,500,1000,3420,57x60] [--models decoder,detector]
 *     [--rows 200] [--max-dense-rows 40] [--repeats 3] [--python python3] [--nld-src PATH]
 *     [--out bench/results/posterior.json]
 *
 * A size NXxNY is a 2-D open field of NX × NY bins (the random walk then runs over x and y, as
 * on NLD's production grid of 3 420 bins); a plain number P is a 1-D track.
 *
 * The log likelihood is a bump that follows a moving position, so the posterior is concentrated
 * as in a real decode. Large N runs fewer rows (--max-dense-rows when N > 2000): per-row times
 * do not depend on T.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { PosteriorModel } from '../src/shared/config';
import { AppError } from '../src/shared/errors';
import { encodeNpyFloat32 } from '../src/main/data';
import { buildStateSpace, filterSmooth, type StateSpace } from '../src/main/engine/posterior';
import { median } from './table';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export function wantsPosterior(argv: string[]): boolean {
  return argv.includes('--posterior');
}

function options(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    options: {
      posterior: { type: 'boolean', default: false },
      sizes: { type: 'string', default: '100,500,1000,3420,57x60' },
      models: { type: 'string', default: 'decoder,detector' },
      rows: { type: 'string', default: '200' },
      'max-dense-rows': { type: 'string', default: '40' },
      repeats: { type: 'string', default: '3' },
      python: { type: 'string', default: 'python3' },
      'nld-src': { type: 'string', default: process.env.KDE_PROFILER_NLD_SRC },
      out: { type: 'string', default: 'bench/results/posterior.json' },
    },
  });
  const sizes = values.sizes!.split(',').map((text) => text.split('x').map(Number));
  if (sizes.some((axes) => axes.length > 2 || axes.some((n) => !Number.isInteger(n) || n < 2))) {
    throw new AppError('BAD_ARGUMENT', `--sizes: grid sizes are P (1-D) or NXxNY (2-D), integers ≥ 2, got ${values.sizes}`);
  }
  const models = values.models!.split(',') as PosteriorModel[];
  if (models.some((m) => m !== 'decoder' && m !== 'detector')) throw new AppError('BAD_ARGUMENT', `--models: decoder and/or detector, got ${values.models}`);
  return {
    sizes, models, rows: Number(values.rows), maxDenseRows: Number(values['max-dense-rows']), repeats: Number(values.repeats),
    python: values.python!, nldSrc: values['nld-src'], out: values.out!,
  };
}

/** 2 cm bins from 1 cm: a 1-D track of P bins, or an nx × ny open field in C order (x-major). */
function grid(axes: number[]) {
  if (axes.length === 1) {
    const p = axes[0]!;
    return { centers: Float64Array.from({ length: p }, (_, j) => 1 + 2 * j), interior: new Uint8Array(p).fill(1) };
  }
  const [nx, ny] = axes as [number, number];
  const centers = new Float64Array(nx * ny * 2);
  for (let b = 0; b < nx * ny; b++) {
    centers[2 * b] = 1 + 2 * Math.floor(b / ny);
    centers[2 * b + 1] = 1 + 2 * (b % ny);
  }
  return { centers, interior: new Uint8Array(nx * ny).fill(1), shape: [nx, ny] };
}

/** T × N: a Gaussian bump (σ 4 cm) following a position that sweeps the track or circles the field; one-bin states flat. */
function logLikelihood(space: StateSpace, rows: number): Float32Array {
  const n = space.nInteriorStateBins;
  const dims = space.grid.shape?.length ?? 1;
  const ll = new Float32Array(rows * n);
  const span = Array.from({ length: dims }, (_, a) => space.grid.centers[(space.nBins - 1) * dims + a]!);
  for (let t = 0; t < rows; t++) {
    const at = span.map((x, a) => x * (0.5 + 0.45 * (a === 0 ? Math.sin(t / 15) : Math.cos(t / 15))));
    for (let k = 0; k < n; k++) {
      const s = space.interiorStateIndex[k]!;
      if (space.stateKinds[s] !== 'spatial') {
        ll[t * n + k] = -3;
        continue;
      }
      const bin = space.interiorBins[k - space.stateStart[s]!]!;
      let d2 = 0;
      for (let a = 0; a < dims; a++) d2 += (space.grid.centers[bin * dims + a]! - at[a]!) ** 2;
      ll[t * n + k] = -d2 / (2 * 16);
    }
  }
  return ll;
}

/**
 * The first call allocates its outputs; the warm calls write into those, as a decode reuses its
 * window's buffers, so they time the filter and smoother rather than first writes into fresh pages.
 */
function timeOurs(space: StateSpace, ll: Float32Array, rows: number, method: 'dense' | 'structured', repeats: number) {
  const t0 = performance.now();
  const firstCall = filterSmooth(space, ll, rows, method);
  const first = performance.now() - t0;
  const acausal = firstCall.acausal.slice();
  const warm: number[] = [];
  for (let i = 0; i < repeats; i++) {
    const s = performance.now();
    filterSmooth(space, ll, rows, method, firstCall);
    warm.push(performance.now() - s);
  }
  return { firstMs: first, medianMs: median(warm), acausal };
}

interface PeerOut {
  numpy: { medianMs: number; maxAbsDiffFromOurs?: number };
  nld: { medianMs?: number; firstMs?: number; skipped?: string; maxAbsDiffFromOurs?: number };
}

function runPeers(dir: string, space: StateSpace, ll: Float32Array, rows: number, acausal: Float32Array, o: ReturnType<typeof options>): PeerOut {
  const n = space.nInteriorStateBins;
  writeFileSync(join(dir, 'initial.npy'), encodeNpyFloat32([n], space.initial));
  writeFileSync(join(dir, 'transition.npy'), encodeNpyFloat32([n, n], space.transitions.dense));
  writeFileSync(join(dir, 'll.npy'), encodeNpyFloat32([rows, n], ll));
  writeFileSync(join(dir, 'ours.npy'), encodeNpyFloat32([rows, n], acausal));
  const args = [join(REPO_ROOT, 'bench/peer/hmm_peer.py'), dir, '--repeats', String(o.repeats), ...(o.nldSrc ? ['--nld-src', o.nldSrc] : [])];
  const r = spawnSync(o.python, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 16 << 20 });
  const line = r.stdout?.trim().split('\n').reverse().find((l) => l.startsWith('{'));
  if (r.status !== 0 || !line) throw new AppError('RUN_FAILED', `the posterior peers (${o.python} hmm_peer.py) exited with ${r.status ?? r.signal}; see their output above.`);
  return JSON.parse(line) as PeerOut;
}

const perRow = (ms: number | undefined, rows: number): string => (ms === undefined ? '—' : ((ms * 1000) / rows).toFixed(1));

export async function runPosteriorBench(argv: string[]): Promise<void> {
  const o = options(argv);
  const dir = mkdtempSync(join(tmpdir(), 'kde-posterior-bench-'));
  const results: unknown[] = [];
  console.log('| model | grid | N | rows | ours dense µs/row | ours structured µs/row | NumPy dense µs/row | NLD JAX µs/row | structured × NLD | structured × dense | max |Δ| NumPy, NLD |');
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  try {
    for (const model of o.models) {
      for (const axes of o.sizes) {
        const space = buildStateSpace(model, grid(axes));
        const p = axes.join('×');
        const n = space.nInteriorStateBins;
        const rows = n > 2000 ? Math.min(o.rows, o.maxDenseRows) : o.rows;
        const ll = logLikelihood(space, rows);
        process.stderr.write(`posterior ${model} P=${p} (N=${n}, ${rows} rows)…\n`);
        const dense = timeOurs(space, ll, rows, 'dense', o.repeats);
        const structured = timeOurs(space, ll, rows, 'structured', o.repeats);
        const peers = runPeers(dir, space, ll, rows, structured.acausal, o);
        const nldMs = peers.nld.medianMs;
        console.log(`| ${model} | ${p} | ${n} | ${rows} | ${perRow(dense.medianMs, rows)} | ${perRow(structured.medianMs, rows)} | ${perRow(peers.numpy.medianMs, rows)} | ` +
          `${nldMs === undefined ? `skipped (${peers.nld.skipped})` : perRow(nldMs, rows)} | ${nldMs ? (structured.medianMs / nldMs).toFixed(4) : '—'} | ` +
          `${(structured.medianMs / dense.medianMs).toFixed(4)} | ${peers.numpy.maxAbsDiffFromOurs?.toExponential(1) ?? '—'}, ${peers.nld.maxAbsDiffFromOurs?.toExponential(1) ?? '—'} |`);
        results.push({ model, p, n, rows, dense: { firstMs: dense.firstMs, medianMs: dense.medianMs }, structured: { firstMs: structured.firstMs, medianMs: structured.medianMs }, peers });
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  mkdirSync(dirname(o.out), { recursive: true });
  writeFileSync(o.out, JSON.stringify({ createdAt: new Date().toISOString(), node: process.version, repeats: o.repeats, results }, null, 2));
  console.log(`\nsaved ${o.out}`);
}
