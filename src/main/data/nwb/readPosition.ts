/**
 * Reads the chosen position series: columns, `conversion` and `offset`, units to cm, optional y flip.
 * Validation is the npz loader's (E011–E013, W014, E043) applied to the NWB paths.
 */
import { count, num, type NumericArray, type ValidationFindings } from '../validation';
import { checkPositionValues, checkSampleTimes, checkTrajectory, type PositionSeries } from '../clusterlessNpz';
import { getDataset, type H5Handle } from './h5';
import { datasetMeta, readRows } from './h5read';
import type { PositionChoice } from './recipe';
import { readTimes } from './scanSeries';
import { leftOutBecause } from './scan';
import type { NwbScan, PositionCandidate } from './scanTypes';

const TO_CM: Record<string, number> = { m: 100, meter: 100, meters: 100, metre: 100, metres: 100, mm: 0.1, millimeters: 0.1, cm: 1, centimeters: 1 };

function unitFactor(c: PositionCandidate, choice: PositionChoice, f: ValidationFindings, notes: string[]): number {
  const unit = (c.unit ?? '').trim().toLowerCase();
  const factor = TO_CM[unit];
  if (choice.toCm === false) {
    notes.push(`position kept in its own unit '${c.unit ?? 'unknown'}'`);
    return 1;
  }
  if (factor === undefined) {
    f.info('I072', `position '${c.dataPath}' has unit '${c.unit ?? '(none)'}', which is not a length the importer converts; values are used as they are (set the position kernel width in the same unit).`,
      { key: c.dataPath });
    return 1;
  }
  return factor;
}

function describeScale(c: PositionCandidate, conversion: number, offset: number, factor: number): string {
  const parts = [conversion !== 1 ? `× ${num(conversion)}` : '', offset !== 0 ? `+ ${num(offset)}` : '', factor !== 1 ? `× ${num(factor)}` : ''].filter(Boolean);
  return `position '${c.dataPath}' is in '${c.unit ?? 'unknown'}' (conversion ${num(c.conversion)}${c.offset !== 0 ? `, offset ${num(c.offset)}` : ''}); cm = data ${parts.join(' ')}.`;
}

function findPosition(scans: NwbScan[], choice: PositionChoice): PositionCandidate | undefined {
  return scans[choice.file]?.position.find((c) => c.path === choice.path);
}

/** Reads one position choice; null (with a finding) when it cannot be used. */
export function readPositionChoice(
  h: H5Handle, scans: NwbScan[], choice: PositionChoice, role: string, f: ValidationFindings, notes: string[],
): PositionSeries | null {
  const c = findPosition(scans, choice);
  const data = c ? getDataset(h, c.dataPath) : null;
  if (!c || !data) {
    const found = scans[choice.file]?.position.map((p) => p.path).join(', ') || 'none';
    f.error('E001', `${role} series '${choice.path}' not found in ${h.file} (position candidates: ${found}).${leftOutBecause(scans[choice.file], choice.path)}`, { key: choice.path });
    return null;
  }
  const width = c.shape.length === 1 ? 1 : c.shape[1]!;
  const columns = choice.columns ?? (width <= 2 ? Array.from({ length: width }, (_, i) => i) : []);
  if (columns.length === 0 || columns.length > 2 || columns.some((j) => j >= width)) {
    f.error('E011', `${role} '${c.dataPath}' has ${width} columns; choose 1 or 2 of columns 0..${width - 1} (recipe columns).`,
      { key: c.dataPath, fix: 'use the first 2 columns' });
    return null;
  }
  const raw = readRows(h, data);
  const rows = c.shape[0]!;
  const dims = columns.length;
  const conversion = choice.applyConversion === false ? 1 : c.conversion;
  const offset = choice.applyConversion === false ? 0 : c.offset;
  const factor = unitFactor(c, choice, f, notes);
  let values: Float64Array;
  if (dims === width && conversion === 1 && offset === 0 && factor === 1) {
    values = raw;
  } else {
    values = new Float64Array(rows * dims);
    for (let i = 0; i < rows; i++) {
      for (let d = 0; d < dims; d++) values[i * dims + d] = (raw[i * width + columns[d]!]! * conversion + offset) * factor;
    }
  }
  if (conversion !== 1 || offset !== 0 || factor !== 1) f.info('I072', describeScale(c, conversion, offset, factor), { key: c.dataPath });
  if (choice.flipY && dims === 2) {
    for (let i = 0; i < rows; i++) values[i * 2 + 1] = -values[i * 2 + 1]!;
    notes.push(`${role}: y flipped`);
  }
  const time = readTimes(h, c.time);
  const timeKey = c.time.kind === 'timestamps' ? c.time.path : `${c.path}/starting_time`;
  const timeDtype = c.time.kind === 'timestamps' ? datasetMeta(h, getDataset(h, c.time.path)!).dtype : 'f8';
  const t: NumericArray = { key: timeKey, shape: [time.length], data: time, descr: `<${timeDtype}` };
  const timeOk = checkSampleTimes(f, t);
  if (time.length !== rows) {
    f.error('E010', `'${c.dataPath}' has ${count(rows)} rows but '${timeKey}' has ${count(time.length)} samples; they must be equal.`, { key: c.dataPath });
    return null;
  }
  if (!checkPositionValues(f, c.dataPath, values, dims) || !timeOk) return null;
  const series = { time, values, dims };
  checkTrajectory(f, timeKey, c.dataPath, series, factor !== 1 || (c.unit ?? '').trim().toLowerCase() === 'cm' ? 'cm' : c.unit);
  notes.push(`${role} from ${h.file}:${c.path} (columns ${columns.join(', ')})`);
  return series;
}

