/** Host-side row selection: indices inside bounds or windows, and the rows they pick. */

/** Indices of values with lo ≤ v ≤ hi (closed on both ends; NaN never passes). */
export function inBoundsIndices(values: Float64Array, lo: number, hi: number): Int32Array {
  // written into a typed array of the largest size and cut: a production tetrode has 85 000 spikes
  const out = new Int32Array(values.length);
  let n = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (v >= lo && v <= hi) out[n++] = i;
  }
  return n === values.length ? out : out.slice(0, n);
}

/**
 * Rows idx of values; values itself when idx takes every row in order (every spike in bounds, the
 * usual case), which callers only read.
 */
export function gatherOrAll(values: Float64Array, idx: Int32Array, width = 1): Float64Array {
  return idx.length * width === values.length ? values : gather(values, idx, width);
}

export function gather(values: Float64Array, idx: Int32Array, width = 1): Float64Array {
  const out = new Float64Array(idx.length * width);
  for (let k = 0; k < idx.length; k++) {
    const src = idx[k]! * width;
    for (let j = 0; j < width; j++) out[k * width + j] = values[src + j]!;
  }
  return out;
}

/** Indices of times inside any of the closed windows. */
export function insideWindows(times: Float64Array, windows: [number, number][]): Int32Array {
  const out: number[] = [];
  for (let i = 0; i < times.length; i++) {
    const t = times[i]!;
    if (windows.some(([a, b]) => t >= a && t <= b)) out.push(i);
  }
  return Int32Array.from(out);
}
