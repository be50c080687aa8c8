/**
 * The likelihood heatmap as pixels: one RGBA pixel per (time row, position bin), drawn as a single
 * image instead of one ECharts element per cell (200 000 elements took seconds to paint here; an
 * image takes milliseconds). Pure: the component puts the pixels on a canvas.
 */

/** viridis: ordered in lightness, readable in both themes and by colour-blind readers */
export const VIRIDIS = ['#440154', '#3b528b', '#21918c', '#5ec962', '#fde725'] as const;

function parseHex(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/** the colour at t ∈ [0, 1] along evenly spaced stops, linearly interpolated */
export function colorAt(stops: readonly string[], t: number): [number, number, number] {
  const x = Math.min(1, Math.max(0, Number.isFinite(t) ? t : 0)) * (stops.length - 1);
  const i = Math.min(stops.length - 2, Math.floor(x));
  const f = x - i;
  const a = parseHex(stops[i]!);
  const b = parseHex(stops[i + 1]!);
  return [0, 1, 2].map((k) => Math.round(a[k]! + (b[k]! - a[k]!) * f)) as [number, number, number];
}

export interface Raster {
  /** pixels across: one per time row */
  width: number;
  /** pixels down: one per position bin, highest position on top */
  height: number;
  /** RGBA, row-major from the top-left; non-finite values are transparent */
  pixels: Uint8ClampedArray<ArrayBuffer>;
}

/** values are rows × cols row-major (time × position); range clamps the colour scale */
export function heatmapRaster(rows: number, cols: number, values: readonly number[], range: [number, number], stops: readonly string[] = VIRIDIS): Raster {
  const pixels = new Uint8ClampedArray(rows * cols * 4);
  const [lo, hi] = range;
  const span = hi - lo || 1;
  // a lookup table: 256 colours instead of an interpolation per cell
  const lut = Array.from({ length: 256 }, (_, i) => colorAt(stops, i / 255));
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < cols; c++) {
      const v = values[r * cols + c]!;
      const o = ((cols - 1 - c) * rows + r) * 4;
      if (!Number.isFinite(v)) continue;
      const [red, green, blue] = lut[Math.round(Math.min(1, Math.max(0, (v - lo) / span)) * 255)]!;
      pixels[o] = red;
      pixels[o + 1] = green;
      pixels[o + 2] = blue;
      pixels[o + 3] = 255;
    }
  }
  return { width: rows, height: cols, pixels };
}
