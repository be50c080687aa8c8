/**
 * The visible window of the timeline and the W/A/S/D moves on it, kept inside [0, totalUs].
 * W/S zoom around the centre (or a focus point), A/D pan by a share of the window's width.
 */

export interface TimeWindow {
  startUs: number;
  endUs: number;
}

/** narrowest window a key press may reach: finer than a microsecond says nothing */
const MIN_WINDOW_US = 1;

export function clampWindow(w: TimeWindow, totalUs: number): TimeWindow {
  const total = Math.max(totalUs, MIN_WINDOW_US);
  let width = Math.min(Math.max(w.endUs - w.startUs, MIN_WINDOW_US), total);
  let start = w.startUs;
  if (start < 0) start = 0;
  if (start + width > total) start = total - width;
  width = Math.max(width, MIN_WINDOW_US);
  return { startUs: start, endUs: start + width };
}

/** factor < 1 zooms in, > 1 zooms out; focusUs defaults to the window's centre */
export function zoomWindow(w: TimeWindow, factor: number, totalUs: number, focusUs?: number): TimeWindow {
  const focus = focusUs ?? (w.startUs + w.endUs) / 2;
  const share = (focus - w.startUs) / Math.max(w.endUs - w.startUs, MIN_WINDOW_US);
  const width = (w.endUs - w.startUs) * factor;
  const start = focus - share * width;
  return clampWindow({ startUs: start, endUs: start + width }, totalUs);
}

/** fraction of the window's width; negative pans left */
export function panWindow(w: TimeWindow, fraction: number, totalUs: number): TimeWindow {
  const shift = (w.endUs - w.startUs) * fraction;
  return clampWindow({ startUs: w.startUs + shift, endUs: w.endUs + shift }, totalUs);
}

const ZOOM_STEP = 0.8;
const PAN_STEP = 0.2;

export function wasdMove(key: string, w: TimeWindow, totalUs: number): TimeWindow | null {
  switch (key.toLowerCase()) {
    case 'w':
      return zoomWindow(w, ZOOM_STEP, totalUs);
    case 's':
      return zoomWindow(w, 1 / ZOOM_STEP, totalUs);
    case 'a':
      return panWindow(w, -PAN_STEP, totalUs);
    case 'd':
      return panWindow(w, PAN_STEP, totalUs);
    default:
      return null;
  }
}

/**
 * The window to ask the service for: the visible one plus half a width each side, so a pan shows
 * boxes at once while the next answer is on its way.
 */
export function fetchWindow(w: TimeWindow, totalUs: number): TimeWindow {
  const width = w.endUs - w.startUs;
  const start = Math.max(0, w.startUs - width / 2);
  const end = Math.max(start + MIN_WINDOW_US, Math.min(Math.max(totalUs, w.endUs), w.endUs + width / 2));
  return { startUs: start, endUs: end };
}
