/**
 * The engine's SIMD kernels against the TensorFlow.js op graphs they replace on the wasm backend,
 * in one process: every op is timed with TensorFlow.js's own kernels first, then again after the
 * engine's kernels are installed (installation cannot be undone in a process). Shapes are those of
 * one `realistic` electrode (1 000 encoding spikes, 2 000 bins, a block of 100 decoding spikes with
 * 4 marks; the series strategy's 12 features and 400 decoding spikes) and of one production
 * tetrode's position-factor chunk and compensated fold step (ns/elem there: per multiply-add; the
 * packed product in the build the engine would install here). Prints medians and ratios; saves JSON.
 * Then the kernels that replace no op graph, alone: the series strategy's interpolated handoff for a
 * block of 100 rows against a production-like tetrode (85 000 spikes on a 200 cm track, marks in
 * 10 units of 24 µV spread over ~80 µV), per mark-kernel pair, with the share of pairs its rows took.
 *
 *   npm run bench:kernels -- [--repeats 15] [--out bench/results/kernels.json]
 */
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-wasm';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { parseArgs } from 'node:util';
import { electrodeFlushThreshold } from '../src/main/engine/hostMath/kernelNormalisers';
import { kernelDirect, logKernelDirect } from '../src/main/engine/gaussian/gaussianKernel';
import { run as linearPositionKernel } from '../src/main/engine/ops/linearPositionKernel';
import { enableRelaxedSimd } from '../src/main/engineProcess';
import { hasWasmKernels, installWasmKernels, relaxedSimdAvailable } from '../src/main/engine/simd';
import { foldChunk as foldPackedChunk, pack as packFactor, type PackedFactor } from '../src/main/engine/ops/packedProduct';
import { run as positionFactorChunks } from '../src/main/engine/ops/positionFactorRows';
import { foldScaledChunk } from '../src/main/engine/strategies/online';
import { run as seriesFactor } from '../src/main/engine/ops/seriesFactor';
import { run as seriesTerms } from '../src/main/engine/ops/seriesTerms';
import { positionReach, projectionReach } from '../src/main/engine/strategies/series/interpolationBound';
import { MARK_SCALE, planInterpolation } from '../src/main/engine/strategies/series/interpolationPlan';
import { INTERPOLATED_TERMS_KERNEL, type InterpolatedTermsAttrs } from '../src/main/engine/kernels';
import { LOG_EPS } from '../src/main/engine/model';
import { normal, rng } from '../src/main/engine/testing/builders';
import { median, printColumns } from './table';

const { values: args } = parseArgs({
  options: {
    repeats: { type: 'string', default: '15' },
    out: { type: 'string', default: 'bench/results/kernels.json' },
  },
});
const repeats = Math.max(3, Number(args.repeats));

interface Case {
  name: string;
  elements: number;
  run: () => tf.Tensor | tf.Tensor[] | { kernel: tf.Tensor; colMax: tf.Tensor; colSum: tf.Tensor };
}

function timeCase(c: Case): number {
  const once = () => {
    const t0 = performance.now();
    const out = c.run();
    const took = performance.now() - t0; // wasm kernels run synchronously inside the call
    tf.dispose(out as tf.TensorContainer);
    return took;
  };
  for (let i = 0; i < 3; i++) once(); // compile and tier up before timing
  return median(Array.from({ length: repeats }, once));
}

await tf.setBackend('wasm');
await tf.ready();
tf.env().set('PROD', true);

const E = 1000;
const P = 2000;
const B = 100;
const D = 4;
const positions = tf.randomUniform([E, 1], 0, 100, 'float32', 1) as tf.Tensor2D;
const centers = tf.reshape(tf.linspace(0.025, 99.975, P), [P, 1]) as tf.Tensor2D;
const encMarks = tf.randomNormal([E, D], 0, 30, 'float32', 2) as tf.Tensor2D;
const decMarks = tf.randomNormal([B, D], 0, 30, 'float32', 3) as tf.Tensor2D;
const expInput = tf.randomUniform([4_000_000], -80, 10, 'float32', 4);
const logInput = tf.randomUniform([4_000_000], 1e-30, 1, 'float32', 5);
const std = [Math.sqrt(12.5)];
// the series strategy's shapes on one realistic electrode (F = 12 padded features, 400 decoding
// spikes) and one production tetrode's position-factor chunk (4 096 spikes × 100 bins)
const F = 12;
const S = 400;
const psi = tf.randomNormal([E, F], 0, 0.1, 'float32', 6) as tf.Tensor2D;
const kpos = tf.randomUniform([E, P], 0, 0.1, 'float32', 7) as tf.Tensor2D;
const phi = tf.randomNormal([S, F], 0, 0.1, 'float32', 8) as tf.Tensor2D;
const w = tf.randomUniform([F, P], 0, 1, 'float32', 9) as tf.Tensor2D;
const rowOff = tf.randomUniform([S], -20, -5, 'float32', 10) as tf.Tensor1D;
const bias = tf.randomUniform([P], -5, 0, 'float32', 11) as tf.Tensor1D;
// a production tetrode's chunk: 4 096 spikes on a 200 cm track, 100 bins, 6 cm kernels
const chunkPositions = tf.randomUniform([4096, 1], 0, 200, 'float32', 12) as tf.Tensor2D;
const chunkOrder = tf.range(0, 4096, 1, 'int32') as tf.Tensor1D;
const chunkCenters = tf.reshape(tf.linspace(1, 199, 100), [100, 1]) as tf.Tensor2D;
const markStd = Array(D).fill(24) as number[];
// one step of the compensated fold on a production tetrode: a block's weights against a chunk of the
// position factor (packed once per electrode on the engine's path, so packing is not timed)
const chunkScale = tf.scalar(-2);
const prevSum = tf.randomUniform([B, 100], 0, 1, 'float32', 13) as tf.Tensor2D;
const packedOnce = new Map<tf.Tensor2D, PackedFactor>();

function foldCase(chunk: number): Case {
  const weights = tf.randomUniform([B, chunk], 0, 1, 'float32', 14) as tf.Tensor2D;
  const factor = tf.randomUniform([chunk, 100], 0, 1, 'float32', 15) as tf.Tensor2D;
  return {
    name: `compensated chunk fold (${B} × ${chunk} · ${chunk} × 100)`,
    elements: B * chunk * 100,
    run: () => {
      const prev = { sum: tf.clone(prevSum), scale: tf.scalar(-1) };
      if (!hasWasmKernels()) {
        const next = foldScaledChunk(prev, weights, chunkScale, factor);
        return [next.sum, next.scale];
      }
      if (!packedOnce.has(factor)) packedOnce.set(factor, packFactor(factor));
      const next = foldPackedChunk(prev, weights, chunkScale, packedOnce.get(factor)!, 100);
      return [next.sum, next.scale];
    },
  };
}

const cases: Case[] = [
  { name: 'exp (4 M floats)', elements: 4e6, run: () => tf.exp(expInput) },
  { name: 'log (4 M floats)', elements: 4e6, run: () => tf.log(logInput) },
  { name: `log position kernel (${E} × ${P}, D = 1)`, elements: E * P, run: () => logKernelDirect(positions, centers, std) },
  { name: `mark kernel, linear (${B} × ${E}, D = ${D})`, elements: B * E, run: () => kernelDirect(decMarks, encMarks, markStd) },
  { name: `linear position kernel + column sums (${E} × ${P})`, elements: E * P, run: () => linearPositionKernel(positions, centers, std) },
  { name: `series factor Ψᵀ·K (F = ${F}, ${E} × ${P})`, elements: E * P, run: () => seriesFactor(psi, kpos) },
  { name: `series terms (${S} × ${P}, F = ${F})`, elements: S * P, run: () => seriesTerms(bias, phi, w, rowOff) },
  {
    name: 'position factor + flush (4096 × 100)', elements: 4096 * 100,
    run: () => positionFactorChunks(chunkPositions, chunkOrder, chunkCenters, [6], [[0, 4096]], true).flatMap((f) => [f.rowMax, f.factor]),
  },
  foldCase(1024),
  foldCase(4096),
];

const tfjsMs = cases.map(timeCase);
// as the engine process does: the packed product's fused build where relaxed SIMD can be had
enableRelaxedSimd(relaxedSimdAvailable);
const { fusedMultiplyAdd } = installWasmKernels();
const engineMs = cases.map(timeCase);

const rows = cases.map((c, i) => [
  c.name,
  tfjsMs[i]!.toFixed(2),
  engineMs[i]!.toFixed(2),
  ((engineMs[i]! / c.elements) * 1e6).toFixed(2),
  (tfjsMs[i]! / engineMs[i]!).toFixed(2),
]);
printColumns(
  `wasm backend, medians of ${repeats} (ms); speed-up = TensorFlow.js ÷ engine; packed product ${fusedMultiplyAdd ? 'with' : 'without'} fused multiply-add`,
  ['op', 'TensorFlow.js', 'engine', 'engine ns/elem', 'speed-up'],
  rows,
);
/** A production-like tetrode's plan and a block of its decoding rows, for the interpolated handoff alone. */
function interpolatedCase(): { name: string; pairs: number; run: () => number } {
  const r = rng(21);
  const nEnc = 85_000;
  const rows = 100;
  const units = Array.from({ length: 10 }, () => Array.from({ length: D }, () => 150 + 80 * normal(r)));
  const mark = (out: Float32Array, i: number) => {
    const u = units[Math.floor(r() * units.length)]!;
    for (let d = 0; d < D; d++) out[i * D + d] = u[d]! + 24 * normal(r);
  };
  const encMarks = new Float32Array(nEnc * D);
  for (let i = 0; i < nEnc; i++) mark(encMarks, i);
  const decHost = new Float32Array(rows * D);
  for (let i = 0; i < rows; i++) mark(decHost, i);
  const positions = Float32Array.from({ length: nEnc }, () => 200 * r());
  const centres = Float32Array.from({ length: 100 }, (_, p) => 1 + 2 * p);
  const stds = Array(D).fill(24) as number[];
  // a production tetrode's largest bias is about 3
  const tau = electrodeFlushThreshold([6], stds, 3);
  const plan = planInterpolation(positions, encMarks, nEnc, D, centres, 6, stds, positionReach(tau));
  const z = plan.size;
  const inputs = {
    a: tf.mul(tf.tensor2d(decHost, [rows, D]), tf.tensor1d(stds.map((s) => MARK_SCALE / s))),
    spikes: tf.tensor1d(plan.spikes),
    chunks: tf.tensor2d(plan.chunks, [z.cells, 5], 'int32'),
    h: tf.tensor1d(plan.h),
    bias: tf.zeros([z.binVectors * 4]),
    direction: tf.tensor1d(plan.direction),
    bounds: tf.tensor1d(plan.bounds),
  };
  const attrs: InterpolatedTermsAttrs = { off: -30, floor: LOG_EPS, reach: projectionReach(tau) };
  return {
    name: `interpolated handoff (${rows} rows × ${nEnc} spikes, D = ${D}, 100 bins)`,
    pairs: rows * nEnc,
    run: () => {
      const [out, taken] = tf.engine().runKernel(INTERPOLATED_TERMS_KERNEL, inputs, attrs as unknown as tf.NamedAttrMap) as tf.Tensor[];
      const vectors = taken!.dataSync()[0]!;
      tf.dispose([out!, taken!]);
      return vectors;
    },
  };
}

const handoff = interpolatedCase();
let takenVectors = 0;
const handoffMs = timeCase({ name: handoff.name, elements: handoff.pairs, run: () => {
  takenVectors = handoff.run();
  return [];
} });
printColumns(
  'kernels with no TensorFlow.js op graph, medians (ms); ns per pair over every mark-kernel pair of the block',
  ['op', 'engine', 'ns/pair', 'pairs taken'],
  [[handoff.name, handoffMs.toFixed(2), ((handoffMs / handoff.pairs) * 1e6).toFixed(3), `${((100 * 4 * takenVectors) / handoff.pairs).toFixed(0)} %`]],
);

mkdirSync(dirname(args.out!), { recursive: true });
writeFileSync(
  args.out!,
  JSON.stringify({
    repeats,
    cases: cases.map((c, i) => ({ name: c.name, elements: c.elements, tfjsMs: tfjsMs[i], engineMs: engineMs[i] })),
    engineOnly: [{ name: handoff.name, pairs: handoff.pairs, engineMs: handoffMs, pairsTaken: (4 * takenVectors) / handoff.pairs }],
  }, null, 2),
);
console.log(`\nsaved ${args.out}`);
