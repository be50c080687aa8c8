/**
 * The trace's instants on their threads' tracks, as Perfetto draws them: a small chevron hanging
 * from the track's top at the moment. Routine notes (which path a strategy took, a kernel not kept
 * within the budget) recur on every electrode and are drawn small in the muted text colour; red is
 * kept for the instants that say something went wrong (shared/traceInstants decides which). The
 * pointer finds the chevron under it here, for the tip that names it.
 */
import { instantSeverity, type InstantSeverity } from '../../../shared/traceInstants';
import { xOf, type TimeScale } from './timeScale';

export const WARNING_COLOR = '#e15759';

export interface InstantStyle {
  severity: InstantSeverity;
  color: string;
  alpha: number;
  /** half the chevron's width and its height, px */
  halfWidthPx: number;
  heightPx: number;
}

export function instantStyle(name: string, mutedColor: string, args?: Record<string, unknown>): InstantStyle {
  return instantSeverity(name, args) === 'warning'
    ? { severity: 'warning', color: WARNING_COLOR, alpha: 1, halfWidthPx: 4.5, heightPx: 8 }
    : { severity: 'routine', color: mutedColor, alpha: 0.6, halfWidthPx: 2.5, heightPx: 5 };
}

export interface InstantMark {
  lane: string;
  name: string;
  tsUs: number;
}

/**
 * `rowTop`: each drawn thread lane's first row on the canvas. Routine marks first, so a warning at
 * the same moment is drawn over them.
 */
export function drawInstants(ctx: CanvasRenderingContext2D, instants: readonly InstantMark[], rowTop: ReadonlyMap<string, number>, scale: TimeScale, mutedColor: string): void {
  const styles = new Map<string, InstantStyle>();
  const styleOf = (name: string): InstantStyle => {
    let s = styles.get(name);
    if (!s) styles.set(name, (s = instantStyle(name, mutedColor)));
    return s;
  };
  for (const pass of ['routine', 'warning'] as const) {
    for (const i of instants) {
      const y = rowTop.get(i.lane);
      const style = styleOf(i.name);
      if (y === undefined || style.severity !== pass) continue;
      const x = xOf(scale, i.tsUs);
      if (x < scale.x0 || x > scale.x0 + scale.widthPx) continue;
      ctx.globalAlpha = style.alpha;
      ctx.fillStyle = style.color;
      ctx.beginPath();
      ctx.moveTo(x - style.halfWidthPx, y);
      ctx.lineTo(x + style.halfWidthPx, y);
      ctx.lineTo(x, y + style.heightPx);
      ctx.fill();
    }
  }
  ctx.globalAlpha = 1;
}

/** how far beyond a chevron the pointer may be and still name it, px: the marks are a few px wide */
const HIT_SLACK_PX = 3;

/**
 * The instant whose chevron is under the pointer at (x, y), or null. `rowTop`: each thread lane's
 * first row top, in the same coordinates as `y`. A warning wins over a note drawn at the same
 * place (it is drawn over it), then the nearest.
 */
export function instantAt(instants: readonly InstantMark[], rowTop: ReadonlyMap<string, number>, scale: TimeScale, x: number, y: number): InstantMark | null {
  let best: InstantMark | null = null;
  let bestRank = Infinity;
  for (const i of instants) {
    const top = rowTop.get(i.lane);
    if (top === undefined) continue;
    const style = instantStyle(i.name, '');
    if (y < top - HIT_SLACK_PX || y > top + style.heightPx + HIT_SLACK_PX) continue;
    const dx = Math.abs(xOf(scale, i.tsUs) - x);
    if (dx > style.halfWidthPx + HIT_SLACK_PX) continue;
    const rank = (style.severity === 'warning' ? 0 : 1e6) + dx;
    if (rank < bestRank) [best, bestRank] = [i, rank];
  }
  return best;
}
