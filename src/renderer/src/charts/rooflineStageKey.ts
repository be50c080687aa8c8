/**
 * The roofline's stage shapes: each engine stage keeps one shape from run to run (and a key outside
 * the canvas shows the same shape as text), so a reader tells stages apart where labels would collide.
 */
import type { RooflinePoint } from './rooflineOption';

export interface StageSymbol {
  /** an ECharts symbol: a built-in name or a `path://` outline */
  symbol: string;
  /** the same shape as text, for a key outside the canvas */
  glyph: string;
}

/** Six shapes a reader tells apart at 12 px, in the engine's stage order. */
const SYMBOLS: readonly StageSymbol[] = [
  { symbol: 'circle', glyph: '●' },
  { symbol: 'rect', glyph: '■' },
  { symbol: 'triangle', glyph: '▲' },
  { symbol: 'diamond', glyph: '◆' },
  { symbol: 'path://M0,0L10,0L5,10Z', glyph: '▼' },
  { symbol: 'path://M3.5,0H6.5V3.5H10V6.5H6.5V10H3.5V6.5H0V3.5H3.5Z', glyph: '✚' },
  { symbol: 'path://M5,0L6.2,3.6H10L6.9,5.9L8.1,9.5L5,7.3L1.9,9.5L3.1,5.9L0,3.6H3.8Z', glyph: '★' },
];
/**
 * The engine's stages in pipeline order, each with the shape (an index into SYMBOLS) it keeps from
 * run to run; any other stage takes a shape none of them uses.
 */
const KNOWN_STAGES: readonly (readonly [stage: string, symbol: number])[] = [
  ['occupancy', 0], ['ground-process', 1], ['position-kernel', 2], ['series-factor', 6], ['mark-kernel', 3], ['reduce', 4], ['scatter', 5],
];
const knownSymbol = new Map(KNOWN_STAGES);

export type StageKeyEntry = { stage: string } & StageSymbol;

/** The shape of every stage in the points: the engine's stages in its order, then others as they appear. */
export function rooflineStageKey(points: readonly RooflinePoint[]): StageKeyEntry[] {
  const present = new Set(points.map((p) => p.stage.stage));
  const known = KNOWN_STAGES.filter(([s]) => present.has(s));
  const other = [...present].filter((s) => !knownSymbol.has(s));
  const taken = new Set(known.map(([, symbol]) => symbol));
  const free = SYMBOLS.map((_, i) => i).filter((i) => !taken.has(i));
  return [
    ...known.map(([stage, symbol]) => ({ stage, ...SYMBOLS[symbol]! })),
    ...other.map((stage, k) => ({ stage, ...SYMBOLS[free.length > 0 ? free[k % free.length]! : k % SYMBOLS.length]! })),
  ];
}
