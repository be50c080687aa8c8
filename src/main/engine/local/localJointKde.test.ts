import { beforeAll, describe, expect, it } from 'vitest';
import { initBackend } from '../index';
import { logKde, logKdeBelowPeak } from '../gaussian/logKde';
import { jointLogKdeAtSpikes, type JointInputs } from './localJointKde';

beforeAll(async () => {
  await initBackend('wasm');
});

function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const rand = seeded(11);
const nEnc = 4000;
const nFeatures = 2;
const encPositions = Float64Array.from({ length: nEnc }, () => 200 * rand());
const encFeatures = Float64Array.from({ length: nEnc * nFeatures }, () => 80 + 40 * rand());
const std = { positionStd: [6], waveformStd: [24, 24] };

function inputs(positions: number[], features: number[], floorBelow: number): JointInputs {
  return {
    encPositions, encFeatures, nEnc, positions: Float64Array.from(positions), features: Float64Array.from(features), nSpikes: positions.length,
    q: 1, nFeatures, ...std, floorBelow: new Float64Array(positions.length).fill(floorBelow),
  };
}

/** every encoding spike, joint (position, marks) rows */
function allJoint(): Float64Array {
  const out = new Float64Array(nEnc * 3);
  for (let i = 0; i < nEnc; i++) out.set([encPositions[i]!, encFeatures[2 * i]!, encFeatures[2 * i + 1]!], 3 * i);
  return out;
}

describe('jointLogKdeAtSpikes', () => {
  it('equals the joint KDE over every encoding spike, evaluating far fewer pairs', async () => {
    const positions = Array.from({ length: 300 }, () => 200 * rand());
    const features = Array.from({ length: 300 * nFeatures }, () => 80 + 40 * rand());
    const result = await jointLogKdeAtSpikes(inputs(positions, features, 0));
    const points = new Float64Array(300 * 3);
    positions.forEach((x, k) => points.set([x, features[2 * k]!, features[2 * k + 1]!], 3 * k));
    const exact = await logKde(allJoint(), points, 3, [6, 24, 24]);
    for (let k = 0; k < 300; k++) expect(Math.abs(result.log[k]! - exact[k]!)).toBeLessThan(1e-5);
    expect(result.fullSpikes).toBe(0);
    expect(result.pairs).toBeLessThan(0.8 * 300 * nEnc);
  });

  it('takes every encoding spike for a spike its window cannot bound, unless its term is floored anyway', async () => {
    // marks far from every encoding spike's: the window's one-pass sum is 0, the exact one is not
    const far = await jointLogKdeAtSpikes(inputs([100, 100], [100, 100, 900, 900], 0));
    expect(far.fullSpikes).toBe(1);
    expect(Number.isFinite(far.log[1]!)).toBe(true);
    const floored = await jointLogKdeAtSpikes(inputs([100, 100], [100, 100, 900, 900], Infinity));
    expect(floored.fullSpikes).toBe(0);
  });

  it('gives NaN at a spike whose position is NaN, as the reference does', async () => {
    const result = await jointLogKdeAtSpikes(inputs([NaN, 50], [100, 100, 100, 100], 0));
    expect(result.log[0]).toBeNaN();
    expect(Number.isFinite(result.log[1]!)).toBe(true);
  });
});

describe('logKdeBelowPeak', () => {
  it('matches logKde where the terms are within 2^−63 of the peak and drops those below', async () => {
    const samples = Float64Array.from({ length: 2000 }, () => 100 * rand());
    const points = Float64Array.from({ length: 64 }, (_, i) => (i < 60 ? 100 * rand() : 1000 + i));
    const onePass = await logKdeBelowPeak(samples, points, 1, [6]);
    expect(onePass).not.toBeNull();
    const exact = await logKde(samples, points, 1, [6]);
    for (let k = 0; k < 60; k++) expect(Math.abs(onePass![k]! - exact[k]!)).toBeLessThan(1e-5);
    for (let k = 60; k < 64; k++) {
      expect(onePass![k]).toBe(-Infinity);
      expect(Number.isFinite(exact[k]!)).toBe(true);
    }
  });
});
