/**
 * Rules about what a time array's numbers say of its unit (data-format.md §6c): float32 precision
 * (E043, a warning between 0.1 and 1 ms), integer sample counts (W040), and position clocks in ms or
 * ticks (W041). They run on each array as it is read, so they explain a clock mismatch (E032) too.
 */
import type { NumericArray } from './arrayReader';
import { count, num, type ValidationFindings } from './validationFindings';
import { float32Resolution, medianPositiveStep } from './scan';

/** float32 spacing coarser than this is an error; between WARN and ERROR a warning */
const RESOLUTION_ERROR_S = 1e-3;
const RESOLUTION_WARN_S = 1e-4;
/** integer-only times above this look like sample counts */
const SAMPLES_ABOVE = 1e4;
/** timebases a position clock is often written in, with the divisor that gives seconds */
const TIMEBASES: { perSecond: number; what: string }[] = [
  { perSecond: 1e3, what: 'milliseconds' },
  { perSecond: 1e4, what: '1e-4 s ticks (as matclust writes)' },
  { perSecond: 96_000, what: 'a 96 kHz timebase (as Axona writes)' },
  { perSecond: 30_000, what: '30 kHz acquisition samples' },
  { perSecond: 1e6, what: 'microseconds' },
];
/** a position step this long (s) with no known timebase is still suspicious */
const SLOW_STEP = 5;
const COMMON_RATES_HZ = [10, 15, 20, 25, 29.97, 30, 40, 50, 60, 100, 120, 125, 200, 250, 500, 1000];

function maxAbsFinite(data: Float64Array): number {
  let m = 0;
  for (const v of data) if (Number.isFinite(v) && Math.abs(v) > m) m = Math.abs(v);
  return m;
}

/** E043: float32 times whose spacing at their largest value is coarser than 1 ms (a warning above 0.1 ms) */
function checkTimeResolution(f: ValidationFindings, a: NumericArray, electrode?: string): void {
  if (a.descr.slice(1) !== 'f4') return;
  const res = float32Resolution(a.data);
  if (res <= RESOLUTION_WARN_S) return;
  const text = `'${a.key}' is float32 with values up to ${num(maxAbsFinite(a.data))} s; float32 resolves only ~${num(res)} s there`;
  if (res > RESOLUTION_ERROR_S) f.error('E043', `${text}. Re-export times as float64.`, { key: a.key, electrode });
  else f.warn('E043', `${text} (between 0.1 and 1 ms). Re-export times as float64 to keep sub-millisecond precision.`, { key: a.key, electrode });
}

/** W041: a position clock whose median step is ≥ 1 is not in seconds; name the likely unit */
function checkPositionClock(f: ValidationFindings, a: NumericArray): boolean {
  const step = medianPositiveStep(a.data)?.median ?? null;
  if (step === null || step < 1) return false;
  for (const tb of TIMEBASES) {
    const rate = tb.perSecond / step;
    const match = COMMON_RATES_HZ.find((r) => Math.abs(rate - r) / r < 0.01);
    if (match !== undefined) {
      f.warn('W041', `'${a.key}' has a median step of ${num(step)}, which is a ${num(match)} Hz position clock in ${tb.what}; times must be seconds.`,
        { key: a.key, fix: `÷${tb.perSecond}` });
      return true;
    }
  }
  if (step < SLOW_STEP) return false;
  f.warn('W041', `'${a.key}' has a median step of ${num(step)}: position sampled less than once in ${SLOW_STEP} s is unusual; check that the times are seconds.`, { key: a.key });
  return true;
}

/** W040: integers only, and large: sample counts rather than seconds */
function checkSampleCounts(f: ValidationFindings, a: NumericArray, electrode?: string): void {
  if (a.data.length < 2) return;
  let max = -Infinity;
  for (const v of a.data) {
    if (!Number.isFinite(v)) continue;
    if (!Number.isInteger(v)) return;
    if (v > max) max = v;
  }
  if (max > SAMPLES_ABOVE) {
    f.warn('W040', `'${a.key}' holds only integers (${count(a.data.length)} values) up to ${num(max)}; these look like sample counts, not seconds. Divide by the sampling rate (e.g. 30000 Hz) or confirm seconds.`,
      { key: a.key, electrode, fix: '÷ sampling rate' });
  }
}

/** The unit rules for one time array: position clocks get W041, every time array W040 and E043. */
export function checkTimeUnits(f: ValidationFindings, a: NumericArray, role: 'position' | 'spikes' | 'bins', electrode?: string): void {
  const clock = role === 'position' && checkPositionClock(f, a);
  if (!clock) checkSampleCounts(f, a, electrode);
  checkTimeResolution(f, a, electrode);
}
