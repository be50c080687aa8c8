/**
 * The lazy scan of one NWB/HDF5 file: walks the groups (skipping /specifications and never reading
 * ElectricalSeries data), classifies objects by their neurodata_type, and describes each candidate
 * from shapes, attributes and small index arrays.
 */
import type { Group as H5Group } from 'h5wasm/node';
import { childPath, externalLinkOn, getDataset, getEntity, guard, isGroup, openH5, type H5Handle } from './h5';
import { attrNumber, attrText, datasetMeta, readSmall, readText } from './h5read';
import { medianRateOf, nanPercentOf, timeRangeOf, timeSourceOf } from './scanSeries';
import { isSpikeTable, scanFeatureExtraction, scanSpikeEventSeries, scanSpikeTable } from './scanSpikes';
import type { IntervalTable, NwbScan, PositionCandidate } from './scanTypes';

/** a file with more objects than this is not walked further (the rest is reported as skipped) */
const MAX_OBJECTS = 200_000;
const MAX_INTERVAL_ROWS = 10_000;
const SKIP = new Set(['/specifications']);
/** containers whose children hold raw voltage traces: nothing under them is a candidate */
const RAW_TYPES = new Set(['ElectricalSeries']);

function typeOf(h: H5Handle, g: H5Group): string | undefined {
  return attrText(h, g, 'neurodata_type') ?? attrText(h, g, 'data_type');
}

function textDataset(h: H5Handle, path: string): string | undefined {
  const ds = getDataset(h, path);
  if (!ds || datasetMeta(h, ds).dtype !== 'str') return undefined;
  return readText(h, ds)[0];
}

function positionFrom(h: H5Handle, g: H5Group, file: number, dataName: string, rank: 1 | 2 | 3, timeName = 'timestamps'): PositionCandidate | null {
  const data = getDataset(h, childPath(g.path, dataName));
  if (!data) return null;
  const meta = datasetMeta(h, data);
  if (!meta.numeric || meta.shape.length < 1 || meta.shape.length > 2) return null;
  const time = timeSourceOf(h, g, meta.shape[0]!, timeName);
  if (!time) return null;
  return {
    file,
    path: g.path,
    rank,
    neurodataType: typeOf(h, g) ?? 'table',
    dataPath: data.path,
    shape: meta.shape,
    unit: attrText(h, data, 'unit'),
    conversion: attrNumber(h, data, 'conversion') ?? 1,
    offset: attrNumber(h, data, 'offset') ?? 0,
    referenceFrame: textDataset(h, childPath(g.path, 'reference_frame')) ?? attrText(h, g, 'reference_frame'),
    description: attrText(h, g, 'description'),
    time,
    timeRange: timeRangeOf(h, time),
    medianRateHz: medianRateOf(h, time),
    nanPct: nanPercentOf(h, data),
  };
}

function intervalsOf(h: H5Handle, g: H5Group, file: number): IntervalTable | null {
  const start = getDataset(h, childPath(g.path, 'start_time'));
  const stop = getDataset(h, childPath(g.path, 'stop_time'));
  if (!start || !stop) return null;
  const n = Math.min(datasetMeta(h, start).shape[0] ?? 0, MAX_INTERVAL_ROWS);
  const a = readSmall(h, start).subarray(0, n);
  const b = readSmall(h, stop).subarray(0, n);
  return { file, path: g.path, rows: Array.from(a, (s, i) => ({ start: s, stop: b[i] ?? NaN })) };
}

function classify(h: H5Handle, g: H5Group, parentType: string | undefined, file: number, out: NwbScan): boolean {
  const type = typeOf(h, g);
  const name = g.path.slice(g.path.lastIndexOf('/') + 1);
  if (type === 'SpatialSeries') {
    const rank = parentType === 'Position' && g.path.startsWith('/processing/behavior/') ? 1 : 2;
    const c = positionFrom(h, g, file, 'data', rank);
    if (c) out.position.push(c);
  } else if (type === 'FeatureExtraction') {
    const c = scanFeatureExtraction(h, g, file);
    if (c) out.featureExtractions.push(c);
  } else if (type === 'SpikeEventSeries') {
    const c = scanSpikeEventSeries(h, g, file);
    if (c) out.spikeEventSeries.push(c);
  } else if (type === 'TimeIntervals') {
    const c = intervalsOf(h, g, file);
    if (c) out.intervals.push(c);
  } else if (type === 'ElectrodeGroup') {
    out.electrodeGroups.push(name);
  } else if (type === 'TimeSeries' && /linear_position/i.test(name)) {
    const c = positionFrom(h, g, file, 'data', 3);
    if (c) out.position.push(c);
  } else if (isSpikeTable(h, g)) {
    const c = scanSpikeTable(h, g, file);
    if (c) out.spikeTables.push(c);
  } else if (getDataset(h, childPath(g.path, 'linear_position'))) {
    const timeName = ['time', 'timestamps', 'index'].find((n) => getDataset(h, childPath(g.path, n)));
    const c = timeName ? positionFrom(h, g, file, 'linear_position', 3, timeName) : null;
    if (c) out.position.push(c);
  }
  return type !== undefined && RAW_TYPES.has(type);
}

function walk(h: H5Handle, file: number, out: NwbScan): void {
  const stack: string[] = ['/'];
  let visited = 0;
  while (stack.length > 0) {
    const path = stack.pop()!;
    const g = getEntity(h, path);
    if (!isGroup(g)) continue;
    let names: string[];
    try {
      names = guard(h.file, path, () => g.keys());
    } catch (e) {
      out.problems.push(`${path}: ${(e as Error).message}`);
      continue;
    }
    const ownType = typeOf(h, g);
    for (const name of names) {
      const p = childPath(path, name);
      if (SKIP.has(p)) continue;
      if (++visited > MAX_OBJECTS) {
        out.problems.push(`more than ${MAX_OBJECTS} objects: the rest of the file was not scanned`);
        return;
      }
      const link = externalLinkOn(h, p);
      if (link) {
        out.problems.push(`${p}: a link to ${link.file}, another file, which is not followed: copy its data into this file to use it`);
        continue;
      }
      const child = getEntity(h, p);
      if (!isGroup(child)) continue;
      try {
        const raw = classify(h, child, ownType, file, out);
        if (!raw) stack.push(p);
      } catch (e) {
        out.problems.push(`${p}: ${(e as Error).message}`);
      }
    }
  }
}

function emptyScan(path: string, file: string): NwbScan {
  return { path, file, position: [], spikeTables: [], featureExtractions: [], spikeEventSeries: [], intervals: [], electrodeGroups: [], problems: [] };
}

/**
 * Why the scan left the object at `path` out of its candidates (a virtual dataset, a link to another
 * file), as a sentence to end a "not found" error with; empty when it said nothing of it.
 */
export function leftOutBecause(scan: NwbScan | undefined, path: string): string {
  const why = scan?.problems.find((p) => p.startsWith(`${path}:`) || p.startsWith(`${path}/`));
  return why ? ` It was left out: ${why}` : '';
}

/** Scans an already open file; `file` is its index among the files of one import. */
export function scanOpened(h: H5Handle, file = 0): NwbScan {
  const out = emptyScan(h.path, h.file);
  out.nwbVersion = attrText(h, h.root, 'nwb_version');
  out.identifier = textDataset(h, '/identifier');
  out.sessionStartTime = textDataset(h, '/session_start_time');
  out.timestampsReferenceTime = textDataset(h, '/timestamps_reference_time');
  walk(h, file, out);
  // natural order, so tetrode_2 comes before tetrode_10 whatever order the walk met them in
  const byPath = (a: { path: string }, b: { path: string }) => a.path.localeCompare(b.path, 'en', { numeric: true });
  out.position.sort((a, b) => a.rank - b.rank || byPath(a, b));
  out.spikeTables.sort(byPath);
  out.featureExtractions.sort(byPath);
  out.spikeEventSeries.sort(byPath);
  out.intervals.sort(byPath);
  return out;
}

/** Opens, scans and closes one file. Throws AppError (NOT_FOUND, E090) when it cannot be opened. */
export async function scanNwbFile(path: string, file = 0): Promise<NwbScan> {
  const h = await openH5(path);
  try {
    return scanOpened(h, file);
  } finally {
    h.close();
  }
}

/** Scans several files of one import, one after the other. */
export async function scanNwb(paths: string[]): Promise<NwbScan[]> {
  const out: NwbScan[] = [];
  for (let i = 0; i < paths.length; i++) out.push(await scanNwbFile(paths[i]!, i));
  return out;
}
