import { describe, expect, it } from 'vitest';
import { buildPlaceGrid1d } from '../../data';
import { placeGrid } from './grid';
import { CASES, fitPositions, reference } from './testing';

describe('placeGrid (posterior-spec §2)', () => {
  it.each(CASES)('%s: centres and interior equal the reference grid', async (name) => {
    const grid = placeGrid(await fitPositions(name));
    const centers = await reference(`${name}_place_bin_centers`);
    const interior = await reference(`${name}_is_track_interior`);
    expect(Array.from(grid.centers)).toEqual(Array.from(centers.data));
    expect(Array.from(grid.interior)).toEqual(Array.from(interior.data));
  });

  it('builds the golden grids: 88 bins from 0 to 175, 84 bins for the detector, gaps leave 5 empty bins', async () => {
    const decoder = placeGrid(await fitPositions('decoder'));
    expect(decoder.centers.length).toBe(88);
    expect(decoder.edges[0]).toBe(0);
    expect(decoder.edges[88]).toBe(175);
    expect(decoder.centers[0]).toBeCloseTo(0.99432, 5);
    expect(placeGrid(await fitPositions('detector')).centers.length).toBe(84);
    const gaps = placeGrid(await fitPositions('decoder_gaps'));
    expect(gaps.interior.reduce((a, b) => a + b, 0)).toBe(83);
  });

  it('agrees with the data loaders grid builder', async () => {
    const positions = await fitPositions('detector_gaps');
    const ours = placeGrid(positions);
    const theirs = buildPlaceGrid1d(positions, 2.0);
    expect(Array.from(ours.edges)).toEqual(Array.from(theirs.edges));
    expect(Array.from(ours.interior, Boolean)).toEqual(theirs.isInterior);
  });

  it('ignores NaN rows and closes the last bin on the right', () => {
    const grid = placeGrid(Float64Array.from([0, NaN, 1, 4]), 2.0);
    expect(Array.from(grid.edges)).toEqual([0, 2, 4]);
    expect(Array.from(grid.interior)).toEqual([1, 1]);
    expect(Array.from(placeGrid(Float64Array.from([0, 4]), 1.0).interior)).toEqual([1, 0, 0, 1]);
  });
});
