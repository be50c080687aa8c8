/**
 * Paints one counter track on its own canvas: the counter's steps filled faintly under a line in
 * its colour, and the pointer's moment as a thin grey rule.
 */
import { COUNTER_TRACK_PX, trackShape, type CounterTrack } from './counterTracks';
import { xOf, type TimeScale } from './timeScale';

function drawShape(ctx: CanvasRenderingContext2D, corners: readonly (readonly [number, number])[], color: string): void {
  ctx.beginPath();
  ctx.moveTo(corners[0]![0], COUNTER_TRACK_PX);
  for (const [x, y] of corners) ctx.lineTo(x, y);
  ctx.lineTo(corners[corners.length - 1]![0], COUNTER_TRACK_PX);
  ctx.closePath();
  ctx.globalAlpha = 0.25;
  ctx.fillStyle = color;
  ctx.fill();
  ctx.globalAlpha = 1;
  ctx.strokeStyle = color;
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  corners.forEach(([x, y], k) => (k === 0 ? ctx.moveTo(x, y) : ctx.lineTo(x, y)));
  ctx.stroke();
}

/** `hoverUs`: the pointer's moment on the time axis, null when it is off the tracks */
export function drawCounterTrack(canvas: HTMLCanvasElement, track: CounterTrack, scale: TimeScale, hoverUs: number | null, dpr: number): void {
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  canvas.width = Math.round(scale.widthPx * dpr);
  canvas.height = Math.round(COUNTER_TRACK_PX * dpr);
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, scale.widthPx, COUNTER_TRACK_PX);
  const shape = trackShape(track.points, scale, COUNTER_TRACK_PX);
  if (shape) drawShape(ctx, shape.corners, track.color);
  if (hoverUs !== null) {
    ctx.fillStyle = 'rgba(128,128,128,0.8)';
    ctx.fillRect(Math.round(xOf(scale, hoverUs)), 0, 1, COUNTER_TRACK_PX);
  }
}
