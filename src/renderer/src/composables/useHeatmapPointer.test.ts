import { describe, expect, it } from 'vitest';
import { computed } from 'vue';
import type { LikelihoodView } from '../../../shared/api';
import { likelihoodValues, rowAtCell, rowsOfCell } from '../charts/likelihoodHeatmapOption';
import { likelihoodView } from '../testing/sampleData';
import { useHeatmapPointer } from './useHeatmapPointer';

/** rows 1000..2000 of a decode, 300 displayed rows; the fake chart's grid is one pixel per cell unit, x and y alike */
const view: LikelihoodView = likelihoodView({ startRow: 1000, endRow: 2000, maxRows: 300 }, 'decode-1');
const grid = {
  containPixel: (_f: unknown, [x, y]: number[]) => x! >= 0 && x! < view.rows && y! >= 0 && y! < view.cols,
  convertFromPixel: (_f: unknown, px: number[]) => px,
};

function pointer(posterior = false) {
  const picked: number[] = [];
  const selected: [number, number][] = [];
  const p = useHeatmapPointer({
    instance: () => grid,
    shown: computed(() => view),
    values: computed(() => likelihoodValues(view, view.relative)),
    posterior: () => posterior,
    valueName: computed(() => (posterior ? 'probability' : 'log likelihood')),
    select: (start, end) => selected.push([start, end]),
    pick: (row) => picked.push(row),
  });
  return { p, picked, selected };
}

describe('pointing at a heatmap', () => {
  it('reads the cell under the pointer, and nothing off the grid', () => {
    const { p } = pointer();
    p.onMove({ offsetX: 10, offsetY: 1 });
    expect(p.hover.value).toMatch(/^t = .* s · rows 1033–1035 \(maximum\) · position .* · log likelihood /);
    p.onMove({ offsetX: -5, offsetY: 1 });
    expect(p.hover.value).toBeNull();
    p.onMove({ offsetX: 10, offsetY: 1 });
    p.onOut();
    expect(p.hover.value).toBeNull();
  });

  it('a drag selects the time rows it crossed, shown while it lasts; a press that barely moves picks its row', () => {
    const { p, picked, selected } = pointer();
    p.onDown({ offsetX: 20, offsetY: 1 });
    p.onMove({ offsetX: 50, offsetY: 1 });
    expect(p.dragRows.value).toEqual([rowAtCell(view, 20), rowAtCell(view, 50)]);
    p.onUp({ offsetX: 50 });
    expect(selected).toEqual([[rowAtCell(view, 20), rowAtCell(view, 50)]]);
    expect(p.dragRows.value).toBeNull();
    p.onDown({ offsetX: 20, offsetY: 1 });
    p.onUp({ offsetX: 22 });
    expect(picked).toEqual([rowsOfCell(view, 20)[0]]);
  });

  it('a release with no press on the grid does nothing', () => {
    const { p, picked, selected } = pointer();
    p.onDown({ offsetX: -1, offsetY: 1 });
    p.onUp({ offsetX: 40 });
    expect([picked, selected]).toEqual([[], []]);
  });
});
