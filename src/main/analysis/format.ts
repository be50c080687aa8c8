/** Number formatting shared by findings, recommendations and the comparison table. */

const MIB = 1024 * 1024;
const GIB = 1024 * MIB;

export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes)) return String(bytes);
  const abs = Math.abs(bytes);
  if (abs >= GIB) return `${(bytes / GIB).toFixed(2)} GiB`;
  if (abs >= MIB) return `${(bytes / MIB).toFixed(1)} MiB`;
  if (abs >= 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${Math.round(bytes)} B`;
}

/** Milliseconds with precision that fits their size: 0.046 ms, 4.70 ms, 63.9 ms, 2408 ms. */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return String(ms);
  const abs = Math.abs(ms);
  if (abs >= 1000) return `${Math.round(ms)} ms`;
  if (abs >= 100) return `${ms.toFixed(1)} ms`;
  if (abs >= 1) return `${ms.toFixed(2)} ms`;
  return `${ms.toPrecision(2)} ms`;
}

/** Absolute differences: exponent form below 0.01, where they usually live. */
export function formatDiff(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  if (x === 0) return '0';
  return Math.abs(x) < 0.01 ? x.toExponential(1) : x.toPrecision(3);
}

export function formatPct(share: number): string {
  return `${(share * 100).toFixed(share === 1 || share === 0 ? 0 : 1)} %`;
}

export function formatRatio(x: number): string {
  return `${x >= 10 ? x.toFixed(0) : x.toFixed(1)}×`;
}

export function formatSignedPct(pct: number): string {
  return `${pct >= 0 ? '+' : ''}${pct.toFixed(1)} %`;
}
