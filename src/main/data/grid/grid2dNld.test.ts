/**
 * The 2-D grid against non_local_detector's own: test/fixtures/nld_grid2d.npz holds what NLD's
 * Environment.fit_place_grid made of three trajectories (scripts/make-nld-2d-fixtures.py), and
 * buildPlaceGrid2d must give the same edges (padding bins included), the same interior after the
 * closing, and the same centres in C order.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { numbersOf, unzipMembers } from '../testing';
import { buildPlaceGrid2d } from './grid2d';

const members = unzipMembers(readFileSync(fileURLToPath(new URL('../../../../test/fixtures/nld_grid2d.npz', import.meta.url))));
const arr = (key: string) => numbersOf(members, key).data;

function maxRelDiff(a: Float64Array, b: Float64Array): number {
  expect(a.length).toBe(b.length);
  let worst = 0;
  for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i]! - b[i]!) / Math.max(1, Math.abs(b[i]!)));
  return worst;
}

describe("the 2-D grid is non_local_detector's", () => {
  for (const name of ['rect', 'hole', 'lshape']) {
    it(`${name}: edges with padding, interior after closing, C-order centres`, () => {
      const grid = buildPlaceGrid2d(arr(`${name}_position`), arr(`${name}_place_bin_size`)[0]!);
      expect(grid.shape).toEqual(Array.from(arr(`${name}_shape`)));
      expect(maxRelDiff(grid.edges[0], arr(`${name}_edges_x`))).toBeLessThan(1e-12);
      expect(maxRelDiff(grid.edges[1], arr(`${name}_edges_y`))).toBeLessThan(1e-12);
      expect(maxRelDiff(grid.centers, arr(`${name}_centers`))).toBeLessThan(1e-12);
      const nld = arr(`${name}_interior`);
      const differ = Array.from(grid.interior).filter((v, b) => v !== nld[b]).length;
      expect(differ, `${differ} of ${nld.length} interior flags differ`).toBe(0);
    });
  }

  it('the cases are what they say: the hole and the L leave bins of their box outside the interior', () => {
    const outside = (name: string) => Array.from(arr(`${name}_interior`)).filter((v) => v === 0).length;
    // every grid has its padding ring outside; the hole and the L have more than the ring
    const ring = (name: string) => { const [nx, ny] = Array.from(arr(`${name}_shape`)); return 2 * nx! + 2 * ny! - 4; };
    expect(outside('hole')).toBeGreaterThan(ring('hole'));
    expect(outside('lshape')).toBeGreaterThan(ring('lshape') + 10);
  });
});
