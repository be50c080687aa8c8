import { describe, expect, it } from 'vitest';
import { detectorDiscreteTransition } from './discreteTransitions';
import { buildStateSpace } from './stateSpace';
import { expandStructured } from './structuredTransition';
import { CASES, gridOf, maxAbsDiff, reference, spaceOf } from './testing';

describe('state space and transitions (posterior-spec §3–§6)', () => {
  it.each(CASES)('%s: state_ind and the float64 transition match the reference within 1e-12, its float32 cast exactly', async (name) => {
    const space = await spaceOf(name);
    const stateInd = await reference(`${name}_state_ind`);
    expect(Array.from(space.stateIndex)).toEqual(Array.from(stateInd.data));
    const a = await reference(`${name}_transition_matrix`);
    expect(a.shape).toEqual([space.nInteriorStateBins, space.nInteriorStateBins]);
    expect(maxAbsDiff(space.transitions.dense64, a.data)).toBeLessThan(1e-12);
    // the float32 matrix the HMM uses is the reference's cast entry for entry, the band's edge included
    expect(space.transitions.dense).toEqual(Float32Array.from(a.data));
  });

  it.each(CASES)('%s: the initial distribution is exactly the reference', async (name) => {
    const space = await spaceOf(name);
    const initial = await reference(`${name}_initial_distribution`);
    expect(Array.from(space.initial)).toEqual(Array.from(Float32Array.from(initial.data)));
  });

  it.each(CASES)('%s: the structured form expands to the dense float32 matrix exactly', async (name) => {
    const space = await spaceOf(name);
    const expanded = expandStructured(space.transitions.structured);
    expect(expanded).toEqual(space.transitions.dense);
  });

  it('keeps the detector order, sizes and the float32 band of the random walk', async () => {
    const space = await spaceOf('detector_gaps');
    expect(space.stateNames).toEqual(['Local', 'No-Spike', 'Non-Local Continuous', 'Non-Local Fragmented']);
    expect(space.nStateBins).toBe(170);
    expect(space.nInteriorStateBins).toBe(160);
    expect(Array.from(space.stateStart)).toEqual([0, 1, 2, 81, 160]);
    const band = space.transitions.structured.blocks.find((b) => b.kind === 'band');
    expect(band?.kind).toBe('band');
    if (band?.kind !== 'band') return;
    // entries below float32's smallest subnormal vanish: about ±17 bins either side at 2 cm
    expect(Math.max(...band.length)).toBeGreaterThan(20);
    expect(Math.max(...band.length)).toBeLessThan(45);
  });

  it('rows of the combined matrix sum to 1 and exits to one-bin states are the discrete entry', async () => {
    const space = await spaceOf('detector');
    const n = space.nInteriorStateBins;
    const a = space.transitions.dense64;
    for (let i = 0; i < n; i++) {
      let sum = 0;
      for (let j = 0; j < n; j++) sum += a[i * n + j]!;
      expect(sum).toBeCloseTo(1, 12);
    }
    // NL-Cont bin 10 → Local is 1 × 0.0175 (not divided among the bins)
    expect(a[(2 + 10) * n + 0]).toBe(0.01750000000000002);
    // Local → NL-Cont bin j is (1/P) × (1 − 0.99 − 0.005)/2, the float64 expression (not 0.0025)
    expect(a[0 * n + 2 + 5]).toBe((1 / 84) * detectorDiscreteTransition()[0]![2]!);
    expect(detectorDiscreteTransition()[0]![2]).not.toBe(0.0025);
  });

  it('the decoder starts uniform at fl32(1/88); the detector in Local with certainty', async () => {
    const decoder = await spaceOf('decoder');
    expect(decoder.initial[0]).toBe(0.011363636702299118);
    const detector = buildStateSpace('detector', await gridOf('detector'));
    expect(detector.initial[0]).toBe(1);
    expect(detector.initial.slice(1).every((v) => v === 0)).toBe(true);
  });

  it('rejects a discrete transition whose rows are not distributions', async () => {
    const grid = await gridOf('decoder');
    expect(() => buildStateSpace('detector', grid, { discreteTransition: [[1]] })).toThrow(RangeError);
    expect(() => buildStateSpace('decoder', grid, { discreteTransition: [[0.5]] })).toThrow(RangeError);
  });
});
