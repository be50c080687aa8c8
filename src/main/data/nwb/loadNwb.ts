/**
 * NWB/HDF5 import: scans one or more files (one per tetrode is common), takes the recipe (or the
 * automatic one when the choice is unambiguous), checks that the files share a clock, and reads the
 * mapped arrays into a Dataset under the same validation rules as the npz loader.
 */
import { basename } from 'node:path';
import type { ValidationFinding } from '../../../shared/api';
import type { Dataset, ElectrodeData } from '../../../shared/dataset';
import { BugError, isAppError } from '../../../shared/errors';
import { checkDataset, count, ValidationFindings, num, finiteRange, checkSpikes } from '../validation';
import { autoRecipe } from './autoRecipe';
import { openH5, type H5Handle } from './h5';
import { decodingBins, placeGrid, recipeParams } from './readLayout';
import { readSpikeSource } from './readMarks';
import { readPositionChoice } from './readPosition';
import type { ElectrodeChoice, NwbRecipe, SpikeSource } from './recipe';
import { scanOpened } from './scan';
import type { NwbScan } from './scanTypes';
import type { PositionSeries } from '../clusterlessNpz';

export interface NwbInspection {
  dataset: Dataset | null;
  findings: ValidationFinding[];
  scans: NwbScan[];
  /** the recipe used: the one given, or the automatic one (null when no unambiguous choice exists) */
  recipe: NwbRecipe | null;
}

function label(paths: string[]): string {
  const first = basename(paths[0] ?? 'nwb');
  return paths.length > 1 ? `${first} (+${paths.length - 1} file${paths.length > 2 ? 's' : ''})` : first;
}

function sourceRange(scans: NwbScan[], s: SpikeSource): [number, number] | null {
  const scan = scans[s.file];
  const c = s.kind === 'units' ? scan?.spikeTables.find((t) => t.path === s.path)
    : s.kind === 'featureExtraction' ? scan?.featureExtractions.find((t) => t.path === s.path)
      : scan?.spikeEventSeries.find((t) => t.path === s.path);
  return c?.timeRange ?? null;
}

/** E032 across files: one reference time, and every file's spikes overlapping the position's span */
function checkClocks(scans: NwbScan[], recipe: NwbRecipe, f: ValidationFindings): void {
  const used = new Set<number>([recipe.position.file, ...recipe.electrodes.flatMap((e) => [e.encoding.file, ...(e.decoding ? [e.decoding.file] : [])])]);
  const refs = new Map<string, string[]>();
  for (const i of used) {
    const ref = scans[i]?.timestampsReferenceTime;
    if (ref !== undefined) refs.set(ref, [...(refs.get(ref) ?? []), scans[i]!.file]);
  }
  if (refs.size > 1) {
    const list = [...refs].map(([ref, files]) => `${files.join(', ')}: ${ref}`).join('; ');
    f.error('E032', `The files do not share a clock: their timestamps_reference_time values differ (${list}). Times from them cannot be combined.`, { key: '/timestamps_reference_time' });
    return;
  }
  const pos = scans[recipe.position.file]?.position.find((c) => c.path === recipe.position.path)?.timeRange;
  if (!pos || scans.length < 2) return;
  for (const e of recipe.electrodes) {
    const r = sourceRange(scans, e.encoding);
    if (r && e.encoding.file !== recipe.position.file && (r[1] < pos[0] || r[0] > pos[1])) {
      f.error('E032', `Spike times of ${sourceLabel(scans, e.encoding)} (${num(r[0])}–${num(r[1])} s) and the position in ${scans[recipe.position.file]!.file} (${num(pos[0])}–${num(pos[1])} s) do not overlap; the files appear to use different clocks.`,
        { key: e.encoding.path, electrode: e.name });
    }
  }
}

function sourceLabel(scans: NwbScan[], s: SpikeSource): string {
  return scans.length > 1 ? `${scans[s.file]!.file}:${s.path}` : s.path;
}

function readElectrode(
  files: H5Handle[], scans: NwbScan[], choice: ElectrodeChoice, index: number, positionRange: [number, number] | null, f: ValidationFindings, notes: string[],
): ElectrodeData | null {
  const name = choice.name ?? `e${index}`;
  const read = (s: SpikeSource, role: 'encoding' | 'decoding') => {
    try {
      const arrays = readSpikeSource(files[s.file]!, scans, s, f, notes);
      return checkSpikes(f, { electrode: name, role, times: arrays.times, features: arrays.features, positionRange: role === 'encoding' ? positionRange : undefined });
    } catch (e) {
      if (!isAppError(e)) throw e;
      f.fromError(e, { key: s.path, electrode: name });
      return null;
    }
  };
  const enc = read(choice.encoding, 'encoding');
  const dec = choice.decoding ? read(choice.decoding, 'decoding') : enc;
  if (!enc || !dec || !enc.ok || !dec.ok) return null;
  const nFeatures = enc.nFeatures ?? dec.nFeatures ?? 1;
  if (enc.nFeatures !== null && dec.nFeatures !== null && enc.nFeatures !== dec.nFeatures) {
    f.error('E023', `Electrode '${name}': decoding marks (${sourceLabel(scans, choice.decoding!)}) have ${dec.nFeatures} features but encoding marks have ${enc.nFeatures}.`, { electrode: name });
    return null;
  }
  return { name, nFeatures, encodingSpikeTimes: enc.times, encodingFeatures: enc.features, decodingSpikeTimes: dec.times, decodingFeatures: dec.features };
}

/** position samples inside any [start, stop) encoding interval */
function trainingMask(time: Float64Array, intervals: [number, number][], notes: string[]): Uint8Array {
  const mask = Uint8Array.from(time, (t) => (intervals.some(([a, b]) => t >= a && t < b) ? 1 : 0));
  notes.push(`encoding intervals ${intervals.map(([a, b]) => `[${num(a)}, ${num(b)})`).join(', ')}: the model is fit on ${count(mask.reduce((x, v) => x + v, 0))} of ${count(time.length)} position samples`);
  return mask;
}

function assemble(files: H5Handle[], scans: NwbScan[], recipe: NwbRecipe, paths: string[], f: ValidationFindings): Dataset | null {
  const notes: string[] = [];
  checkClocks(scans, recipe, f);
  const pos = readPositionChoice(files[recipe.position.file]!, scans, recipe.position, 'position', f, notes);
  let decPos: PositionSeries | null = null;
  if (recipe.decodingPosition) {
    decPos = readPositionChoice(files[recipe.decodingPosition.file]!, scans, recipe.decodingPosition, 'decoding position', f, notes);
    if (decPos && pos && decPos.dims !== pos.dims) {
      f.error('E011', `the decoding position has ${decPos.dims} columns but the position has ${pos.dims}; they must match.`, { key: recipe.decodingPosition.path });
    }
  }
  const range = pos ? finiteRange(pos.time) : null;
  const electrodes: ElectrodeData[] = [];
  recipe.electrodes.forEach((choice, i) => {
    const e = readElectrode(files, scans, choice, i, range, f, notes);
    if (e) electrodes.push(e);
  });
  const params = recipeParams(recipe, notes);
  if (!pos) return null;
  const time = decodingBins(files, recipe.bins, pos, decPos, f, notes);
  const grid = placeGrid(files, recipe.grid, pos, params.placeBinSize, f, notes);
  if (!time || !grid || f.errorCount() > 0 || electrodes.length !== recipe.electrodes.length) return null;
  const ds: Dataset = {
    name: basename(paths[0]!).replace(/\.(nwb|h5|hdf5)$/i, ''),
    source: paths.join(', '),
    positionTime: pos.time,
    position: pos.values,
    positionDims: pos.dims,
    time,
    electrodes,
    placeBinCenters: grid.centers,
    ...(grid.full ? { placeGrid: grid.full } : {}),
    params,
    notes,
  };
  if (decPos) {
    ds.decodingPositionTime = decPos.time;
    ds.decodingPosition = decPos.values;
  }
  notes.unshift(`${count(electrodes.length)} electrodes from ${paths.map((p) => basename(p)).join(', ')} (NWB)`);
  if (recipe.encodingIntervals) ds.isTraining = trainingMask(pos.time, recipe.encodingIntervals, notes);
  const timeKey = recipe.bins.kind === 'dataset' ? recipe.bins.path : recipe.bins.kind === 'uniform' ? 'bins (uniform)' : `${recipe.position.path} timestamps`;
  checkDataset(f, ds, { positionKey: recipe.position.path, timeKey });
  return f.errorCount() > 0 ? null : ds;
}

async function openAll(paths: string[], f: ValidationFindings): Promise<H5Handle[] | null> {
  const files: H5Handle[] = [];
  for (const p of paths) {
    try {
      files.push(await openH5(p));
    } catch (e) {
      if (!isAppError(e)) throw e;
      f.fromError(e, {});
    }
  }
  if (files.length === paths.length) return files;
  for (const h of files) h.close();
  return null;
}

/** Validates an NWB import and, when it has no errors, returns its Dataset. Never throws for bad input. */
export async function inspectNwb(paths: string[], recipe?: NwbRecipe): Promise<NwbInspection> {
  const f = new ValidationFindings(label(paths));
  const files = await openAll(paths, f);
  if (!files) return { dataset: null, findings: f.items, scans: [], recipe: recipe ?? null };
  try {
    const scans = files.map((h, i) => scanOpened(h, i));
    for (const s of scans) for (const p of s.problems) f.warn('W090', `${s.file}: skipped while scanning: ${p}`);
    if (recipe && recipe.files.length !== paths.length) {
      f.error('E001', `the recipe maps ${recipe.files.length} file(s) but ${paths.length} were given.`, { key: 'files' });
      return { dataset: null, findings: f.items, scans, recipe };
    }
    const used = recipe ?? autoRecipe(scans, f);
    if (!used) return { dataset: null, findings: f.items, scans, recipe: null };
    if (!recipe) f.info('I091', 'mapped automatically: the position series, electrodes and decoding bins were the only candidates (save a recipe to change them).');
    const dataset = assemble(files, scans, used, paths, f);
    return { dataset, findings: f.items, scans, recipe: used };
  } catch (e) {
    if (!isAppError(e)) throw e;
    f.fromError(e, {});
    return { dataset: null, findings: f.items, scans: [], recipe: recipe ?? null };
  } finally {
    for (const h of files) h.close();
  }
}

/** Loads an NWB import; throws an AppError with the first error's code, naming how many more there are. */
export async function loadNwb(paths: string[], recipe?: NwbRecipe): Promise<Dataset> {
  const r = await inspectNwb(paths, recipe);
  if (r.dataset) return r.dataset;
  const f = new ValidationFindings(label(paths));
  f.items.push(...r.findings);
  throw f.toAppError() ?? new BugError(`${paths.join(', ')}: the NWB loader returned no dataset and no error finding`);
}
