/**
 * Rules about the animal's path (data-format.md §6c): jumps between consecutive samples that no
 * animal makes (W070, usually tracking errors) and gaps in the position clock (W071).
 */
import { medianPositiveStep } from './scan';
import { count, num, type ValidationFindings } from './validationFindings';

/** a jump above this many cm between consecutive samples is a tracking error */
const JUMP_CM = 50;
const CM_PER_UNIT: Record<string, number> = { cm: 1, m: 100, meters: 100, metres: 100, mm: 0.1 };
/** a step longer than this many median steps is a gap; above DROP only samples were dropped */
const GAP_FACTOR = 5;
const DROP_FACTOR = 1.5;

/** W070; `unit` is the position's unit (cm when not given; an unknown unit is read as if it were cm) */
export function checkJumps(f: ValidationFindings, key: string, time: Float64Array, values: Float64Array, dims: number, unit = 'cm'): void {
  const perUnit = CM_PER_UNIT[unit.trim().toLowerCase()] ?? 1;
  const threshold = JUMP_CM / perUnit;
  let jumps = 0;
  let max = 0;
  let maxDt = 0;
  let first = -1;
  for (let i = 1; i < time.length; i++) {
    let d2 = 0;
    for (let d = 0; d < dims; d++) d2 += (values[i * dims + d]! - values[(i - 1) * dims + d]!) ** 2;
    const dist = Math.sqrt(d2);
    if (!(dist > threshold)) continue;
    jumps++;
    if (first < 0) first = i;
    if (dist > max) {
      max = dist;
      maxDt = time[i]! - time[i - 1]!;
    }
  }
  if (jumps === 0) return;
  const u = unit.trim() || 'cm';
  f.warn('W070', `${count(jumps)} position jump${jumps === 1 ? '' : 's'} in '${key}' above ${num(threshold)} ${u} between consecutive samples (first at index ${count(first)}; max ${num(max)} ${u} in ${num(maxDt * 1000)} ms); probably tracking errors.`,
    { key, index: first });
}

/** W071: steps longer than 5× the median step (with the count of dropped samples beside) */
export function checkGaps(f: ValidationFindings, key: string, time: Float64Array): void {
  const found = medianPositiveStep(time);
  if (!found || found.steps < 3) return;
  const { median } = found;
  let gaps = 0;
  let drops = 0;
  let max = 0;
  let first = -1;
  for (let i = 1; i < time.length; i++) {
    const d = time[i]! - time[i - 1]!;
    if (d > DROP_FACTOR * median) drops++;
    if (d > GAP_FACTOR * median) {
      gaps++;
      if (first < 0) first = i;
      max = Math.max(max, d);
    }
  }
  if (gaps === 0) return;
  f.warn('W071', `'${key}' has ${count(gaps)} gap${gaps === 1 ? '' : 's'} longer than ${GAP_FACTOR}× the median step of ${num(median)} s (first at index ${count(first)}, max ${num(max)} s); ${count(drops)} steps in all exceed ${DROP_FACTOR}× the median (dropped samples).`,
    { key, index: first });
}
