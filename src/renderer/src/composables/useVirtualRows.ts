/**
 * A table that renders only the rows in view: of a hundred thousand runs, the few dozen the
 * scroller shows plus a margin, between two spacer rows as tall as the rows left out, so the
 * scrollbar is the whole list's. Rows share one height, measured from a rendered row (the default
 * until one is). The window is a pure function, tested without a browser.
 */
import { computed, ref, type Ref } from 'vue';

/** rows rendered beyond each edge of the view, so a short scroll shows rows already there */
export const OVERSCAN_ROWS = 10;
/** a row's height before one is measured */
export const DEFAULT_ROW_PX = 44;
/** the view's height before it is measured: a window's worth */
const DEFAULT_VIEW_PX = 800;

export interface RowWindow {
  /** the first row rendered */
  first: number;
  /** one past the last row rendered */
  end: number;
  /** the heights of the spacers before and after them */
  padTopPx: number;
  padBottomPx: number;
}

/** The rows to render of `total` rows of `rowPx` each, for a view of `heightPx` scrolled `scrollTopPx` down. */
export function rowWindow(total: number, rowPx: number, scrollTopPx: number, heightPx: number, overscan = OVERSCAN_ROWS): RowWindow {
  const px = rowPx > 0 ? rowPx : DEFAULT_ROW_PX;
  const first = Math.min(total, Math.max(0, Math.floor(scrollTopPx / px) - overscan));
  const end = Math.min(total, Math.max(first, Math.ceil((scrollTopPx + Math.max(0, heightPx)) / px) + overscan));
  return { first, end, padTopPx: first * px, padBottomPx: (total - end) * px };
}

export interface Viewport {
  scrollTopPx: number;
  heightPx: number;
}

export function useVirtualRows(total: Ref<number>) {
  const viewport = ref<Viewport>({ scrollTopPx: 0, heightPx: DEFAULT_VIEW_PX });
  const rowPx = ref(DEFAULT_ROW_PX);
  const range = computed(() => rowWindow(total.value, rowPx.value, viewport.value.scrollTopPx, viewport.value.heightPx));

  /** the height of a rendered row: every row has the one height the first rendered row has */
  function measure(row: Element | null): void {
    const px = row?.getBoundingClientRect().height ?? 0;
    if (px > 0 && Math.abs(px - rowPx.value) > 0.5) rowPx.value = px;
  }

  return { viewport, rowPx, range, measure };
}
