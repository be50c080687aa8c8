/**
 * Where the timeline's canvas text goes, decided before anything is drawn so no two labels print
 * over each other: a span's name stays inside the part of its box no later box covers (a folded
 * electrode group draws every electrode's boxes on one row, where they overlap), and the ruler
 * labels every tick only while the labels fit between ticks, else every second or fifth one, the
 * way Perfetto thins its time axis when zoomed out. Widths are estimated from the 11 px font's
 * average glyph, so a frame measures no text.
 */

/** the 11 px font's average glyph width */
export const CHAR_PX = 6.2;
/** space kept between two labels on a line */
const LABEL_GAP_PX = 6;
/** a label's inset from its box's or tick's edge */
export const LABEL_INSET_PX = 3;

export const textWidthPx = (text: string): number => text.length * CHAR_PX;

/** The text cut with an ellipsis to fit `widthPx`; '' when not even a letter fits. */
export function fitText(text: string, widthPx: number): string {
  const chars = Math.floor(widthPx / CHAR_PX);
  if (chars >= text.length) return text;
  return chars > 1 ? `${text.slice(0, chars - 1)}…` : '';
}

/** a box drawn on one row: where it starts, how wide it is on screen, what it would say ('' for nothing) */
export interface RowBox {
  x: number;
  w: number;
  text: string;
}

export interface PlacedLabel {
  /** the text's left edge */
  x: number;
  text: string;
}

/**
 * The labels of one row of boxes: each in the room its box has before the next box starting
 * after it (which is drawn over it), cut to fit, none starting before the previous one ends.
 */
export function placeRowLabels(boxes: readonly RowBox[], minBoxPx: number): PlacedLabel[] {
  const order = boxes.map((_, i) => i).sort((a, b) => boxes[a]!.x - boxes[b]!.x || a - b);
  const out: PlacedLabel[] = [];
  let lastRight = -Infinity;
  for (let k = 0; k < order.length; k++) {
    const box = boxes[order[k]!]!;
    if (box.text === '' || box.w < minBoxPx) continue;
    let end = box.x + box.w;
    for (let j = k + 1; j < order.length; j++) {
      const next = boxes[order[j]!]!;
      if (next.x > box.x) {
        end = Math.min(end, next.x);
        break;
      }
    }
    const x = box.x + LABEL_INSET_PX;
    if (x < lastRight + LABEL_GAP_PX) continue;
    const text = fitText(box.text, end - box.x - 2 * LABEL_INSET_PX);
    if (text === '') continue;
    out.push({ x, text });
    lastRight = x + textWidthPx(text);
  }
  return out;
}

export interface TickLabel {
  x: number;
  label: string;
  /** 'right': the label ends at its tick (the last tick, whose label would run off the canvas) */
  align: 'left' | 'right';
}

/** every `step`-th label collides with none of its neighbours */
function spacingFits(ticks: readonly { x: number; label: string }[], step: number): boolean {
  for (let i = step; i < ticks.length; i += step) {
    const prev = ticks[i - step]!;
    if (prev.x + LABEL_INSET_PX + textWidthPx(prev.label) + LABEL_GAP_PX > ticks[i]!.x + LABEL_INSET_PX) return false;
  }
  return true;
}

/**
 * The ruler's labels: every tick's while they fit, else every 2nd, 5th, 10th… (the ticks stay);
 * a label that would run past `rightPx` ends at its tick instead, or goes when that would collide.
 * Thinned ticks keep an empty label.
 */
export function thinTickLabels(ticks: readonly { x: number; label: string }[], rightPx: number): TickLabel[] {
  const steps = [1, 2, 5, 10, 20, 50, 100];
  const step = steps.find((s) => spacingFits(ticks, s)) ?? Math.max(1, ticks.length);
  const out: TickLabel[] = [];
  let lastRight = -Infinity;
  ticks.forEach((t, i) => {
    const width = textWidthPx(t.label);
    if (i % step !== 0 || t.label === '') return void out.push({ x: t.x, label: '', align: 'left' });
    const fitsRight = t.x + LABEL_INSET_PX + width <= rightPx;
    const left = fitsRight ? t.x + LABEL_INSET_PX : t.x - LABEL_INSET_PX - width;
    if (left < lastRight + LABEL_GAP_PX) return void out.push({ x: t.x, label: '', align: 'left' });
    out.push({ x: t.x, label: t.label, align: fitsRight ? 'left' : 'right' });
    lastRight = left + width;
  });
  return out;
}
