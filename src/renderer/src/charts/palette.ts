/**
 * Colours and small text helpers shared by the option builders. Colours read on both themes.
 */

export const SERIES_COLORS = [
  '#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#76b7b2', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#6b8fd6',
] as const;

export const SEVERITY_COLORS = { ok: '#59a14f', warning: '#e8a33d', error: '#e15759', neutral: '#8c8c8c' } as const;

/** FNV-1a: the same name gets the same colour in every chart and every session */
function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export function colorForName(name: string): string {
  return SERIES_COLORS[hashString(name) % SERIES_COLORS.length]!;
}

/** strategy names keep the order of the strategy list, so colours match across charts */
export function colorForIndex(i: number): string {
  return SERIES_COLORS[((i % SERIES_COLORS.length) + SERIES_COLORS.length) % SERIES_COLORS.length]!;
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}
