/**
 * A raster (charts/heatmapRaster) on a canvas ECharts can draw as an image. Cells are enlarged
 * with nearest-neighbour first, so the browser's smoothing when the chart scales the image does
 * not smear a small grid (3 × 2 cells) into a blur.
 */
import type { Raster } from '../charts/heatmapRaster';

export function rasterToCanvas(raster: Raster, targetPx = 1200): HTMLCanvasElement {
  const small = document.createElement('canvas');
  small.width = Math.max(1, raster.width);
  small.height = Math.max(1, raster.height);
  if (raster.width > 0 && raster.height > 0) {
    small.getContext('2d')!.putImageData(new ImageData(raster.pixels, raster.width, raster.height), 0, 0);
  }
  const kx = Math.max(1, Math.ceil(targetPx / small.width));
  const ky = Math.max(1, Math.ceil(targetPx / small.height));
  if (kx === 1 && ky === 1) return small;
  const big = document.createElement('canvas');
  big.width = small.width * kx;
  big.height = small.height * ky;
  const ctx = big.getContext('2d')!;
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(small, 0, 0, big.width, big.height);
  return big;
}
