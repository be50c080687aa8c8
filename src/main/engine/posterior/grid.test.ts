import { describe, expect, it } from 'vitest';
import { buildPlaceGrid1d } from '../../data';
import { CASES, fitPositions, gridOf, reference } from './testing';

/** The posterior reads the grid the data loaders build: it must be NLD's grid of posterior-spec §2. */
describe('the place grid the posterior runs on (posterior-spec §2)', () => {
  it.each(CASES)('%s: centres and interior equal the reference grid', async (name) => {
    const grid = await gridOf(name);
    const centers = await reference(`${name}_place_bin_centers`);
    const interior = await reference(`${name}_is_track_interior`);
    expect(Array.from(grid.centers)).toEqual(Array.from(centers.data));
    expect(Array.from(grid.interior)).toEqual(Array.from(interior.data));
  });

  it('builds the golden grids: 88 bins from 0 to 175, 84 bins for the detector, gaps leave 5 empty bins', async () => {
    const decoder = buildPlaceGrid1d(await fitPositions('decoder'), 2.0);
    expect(decoder.centers.length).toBe(88);
    expect(decoder.edges[0]).toBe(0);
    expect(decoder.edges[88]).toBe(175);
    expect(decoder.centers[0]).toBeCloseTo(0.99432, 5);
    expect((await gridOf('detector')).centers.length).toBe(84);
    const gaps = await gridOf('decoder_gaps');
    expect(gaps.interior.reduce((a, b) => a + b, 0)).toBe(83);
  });

  it('ignores NaN rows and closes the last bin on the right', () => {
    const grid = buildPlaceGrid1d(Float64Array.from([0, NaN, 1, 4]), 2.0);
    expect(Array.from(grid.edges)).toEqual([0, 2, 4]);
    expect(grid.isInterior).toEqual([true, true]);
    expect(buildPlaceGrid1d(Float64Array.from([0, 4]), 1.0).isInterior).toEqual([true, false, false, true]);
  });
});
