/**
 * Time ↔ pixels for the visible window, and the ruler's ticks: round steps (1, 2, 5 × 10^k µs)
 * about a hundred pixels apart, labelled relative to the run's start with as many digits as the
 * step needs, so ticks 2 ms apart at 5.3 s read 5302 ms, 5304 ms rather than "5.30 s" five times.
 * Labels that would collide or run off the canvas are thinned (labelLayout).
 */
import { niceTicks } from '../charts/niceTicks';
import { thinTickLabels, type TickLabel } from './labelLayout';
import type { TimeWindow } from '../lib/timeWindow';

export interface TimeScale {
  startUs: number;
  endUs: number;
  /** left edge of the plot on the canvas, px */
  x0: number;
  widthPx: number;
}

export const xOf = (s: TimeScale, us: number): number => s.x0 + ((us - s.startUs) / Math.max(s.endUs - s.startUs, 1e-9)) * s.widthPx;
export const usOf = (s: TimeScale, x: number): number => s.startUs + ((x - s.x0) / Math.max(s.widthPx, 1)) * (s.endUs - s.startUs);

export function scaleOf(window: TimeWindow, x0: number, widthPx: number): TimeScale {
  return { startUs: window.startUs, endUs: window.endUs, x0, widthPx: Math.max(1, widthPx) };
}

/** pixels between ruler labels the ticks aim for */
const TICK_SPACING_PX = 110;

/** a tick; its label is '' where labels were thinned */
export type RulerTick = TickLabel;

/** a tick's label in the unit its step reads best in, with the decimals the step needs */
export function tickLabel(us: number, stepUs: number): string {
  const [unit, perUnit] = stepUs >= 1e5 ? ['s', 1e6] : stepUs >= 100 ? ['ms', 1e3] : ['µs', 1];
  const decimals = Math.max(0, -Math.floor(Math.log10(stepUs / perUnit) + 1e-9));
  return `${(us / perUnit).toFixed(Math.min(decimals, 6))} ${unit}`;
}

/** `rightPx`: where the canvas ends, which no label may pass (by default the plot's right edge) */
export function rulerTicks(s: TimeScale, rightPx = s.x0 + s.widthPx): RulerTick[] {
  const values = niceTicks(s.startUs, s.endUs, Math.max(2, Math.floor(s.widthPx / TICK_SPACING_PX)));
  const step = values.length > 1 ? values[1]! - values[0]! : Math.max(s.endUs - s.startUs, 1);
  return thinTickLabels(values.map((us) => ({ x: xOf(s, us), label: tickLabel(us, step) })), rightPx);
}
