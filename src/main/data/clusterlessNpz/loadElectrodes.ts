/**
 * Finds the electrodes of a clusterless-npz/1 file in either layout — per-electrode keys
 * (spike_times_<e> + spike_waveform_features_<e>) or the concatenated NWB-like one (spike_times,
 * spike_times_index, spike_waveform_features), or the legacy dense multiunits — and checks their
 * pairing (E020, E030, E064, E065).
 */
import type { ElectrodeData } from '../../../shared/dataset';
import type { LoadProgress } from './loadNpz';
import {
  checkSpikes, checkTimeUnits, count, type ArrayReader, type CheckedSpikes, type SpikeInput, type ValidationFindings,
} from '../validation';
import { readLegacyDense } from './legacyDense';

export interface ElectrodeSet {
  electrodes: ElectrodeData[];
  /** false when the file had no decoding_* spikes and the encoding spikes are decoded */
  separateDecoding: boolean;
  layout: 'per-electrode' | 'concatenated' | 'legacy-dense';
}

const PER_ELECTRODE = /^(decoding_)?(spike_times|spike_waveform_features)_(\d+)$/;
const CONCAT_KEYS = ['spike_times', 'spike_times_index', 'spike_waveform_features'];
/** the most electrodes a file may number (spike_times_0 … spike_times_<MAX - 1>); far beyond any probe */
export const MAX_ELECTRODE_INDEX = 65_535;

interface Slice {
  times: string;
  features: string;
  rowStart?: number;
  rowEnd?: number;
}

/** For one prefix ('' or 'decoding_'): the electrode indices with any key, reporting unpaired ones. */
function pairedIndices(keys: string[], prefix: string, f: ValidationFindings, seen: Set<number>): Set<number> {
  const times = new Set<number>();
  const feats = new Set<number>();
  for (const k of keys) {
    const m = PER_ELECTRODE.exec(k);
    if (!m || (m[1] ?? '') !== prefix) continue;
    const e = Number(m[3]);
    if (!(e <= MAX_ELECTRODE_INDEX)) {
      f.error('E020', `'${k}' numbers electrode ${m[3]}, beyond the ${MAX_ELECTRODE_INDEX} electrode indices a file may use: number the electrodes 0, 1, 2, … without gaps.`, { key: k });
      continue;
    }
    (m[2] === 'spike_times' ? times : feats).add(e);
    seen.add(e);
  }
  for (const e of times) {
    if (!feats.has(e)) f.error('E020', `'${prefix}spike_times_${e}' exists but '${prefix}spike_waveform_features_${e}' does not.`, { key: `${prefix}spike_times_${e}` });
  }
  for (const e of feats) {
    if (!times.has(e)) f.error('E020', `'${prefix}spike_waveform_features_${e}' exists but '${prefix}spike_times_${e}' does not.`, { key: `${prefix}spike_waveform_features_${e}` });
  }
  return new Set([...times].filter((e) => feats.has(e)));
}

function perElectrodeSlices(keys: string[], f: ValidationFindings): { enc: Map<number, Slice>; dec: Map<number, Slice> | null; n: number } {
  const encSeen = new Set<number>();
  const decSeen = new Set<number>();
  const enc = pairedIndices(keys, '', f, encSeen);
  const dec = pairedIndices(keys, 'decoding_', f, decSeen);
  const seen = new Set([...encSeen, ...decSeen]);
  let n = 0;
  for (const e of seen) if (e + 1 > n) n = e + 1;
  // indices with no key at all; half-present ones were reported as unpaired above
  const missing: number[] = [];
  for (let e = 0; e < n; e++) if (!seen.has(e)) missing.push(e);
  if (missing.length > 0) {
    const shown = missing.slice(0, 10).join(', ') + (missing.length > 10 ? ', …' : '');
    f.error('E020', `electrode indices must be contiguous 0..${n - 1} with spike_times_<e> and spike_waveform_features_<e> for each; missing ${shown}.`,
      { key: `spike_times_${missing[0]}` });
  }
  for (const e of decSeen) {
    if (!encSeen.has(e)) f.error('E020', `'decoding_spike_times_${e}' exists but 'spike_times_${e}' does not.`, { key: `decoding_spike_times_${e}` });
  }
  if (decSeen.size > 0) {
    for (const e of encSeen) {
      if (!decSeen.has(e)) f.error('E020', `decoding spikes are given for other electrodes but 'decoding_spike_times_${e}' is missing.`, { key: `decoding_spike_times_${e}` });
    }
  }
  const slice = (p: string, e: number): Slice => ({ times: `${p}spike_times_${e}`, features: `${p}spike_waveform_features_${e}` });
  return {
    enc: new Map([...enc].sort((a, b) => a - b).map((e) => [e, slice('', e)])),
    dec: dec.size > 0 ? new Map([...dec].map((e) => [e, slice('decoding_', e)])) : null,
    n,
  };
}

/** Splits the concatenated layout by its end offsets; null (with E065/E001/E021) when it cannot. */
async function concatenatedSlices(r: ArrayReader, prefix: string, f: ValidationFindings): Promise<Slice[] | null> {
  const [tk, ik, fk] = CONCAT_KEYS.map((k) => prefix + k) as [string, string, string];
  const present = [tk, ik, fk].filter((k) => r.has(k));
  if (present.length === 0) return null;
  if (present.length < 3) {
    const missing = [tk, ik, fk].filter((k) => !r.has(k));
    f.error('E001', `the concatenated layout needs ${tk}, ${ik} and ${fk}; missing ${missing.join(', ')}.`, { key: missing[0] });
    return null;
  }
  const times = await r.numeric(tk);
  const index = await r.numeric(ik);
  const feats = await r.numeric(fk);
  if (!times || !index || !feats) return null;
  checkTimeUnits(f, times, 'spikes');
  const n = times.shape[0] ?? 0;
  if (index.shape.length !== 1) {
    f.error('E065', `'${ik}' must be 1-D (one end offset per electrode); got ${index.shape.length}-D.`, { key: ik });
    return null;
  }
  let prev = 0;
  for (let e = 0; e < index.data.length; e++) {
    const v = index.data[e]!;
    if (!Number.isInteger(v) || v < prev) {
      f.error('E065', `'${ik}' must hold non-decreasing integer end offsets into ${tk}; entry ${count(e)} is ${v} after ${prev}.`, { key: ik, index: e });
      return null;
    }
    prev = v;
  }
  if (prev !== n) {
    f.error('E065', `'${ik}' must be non-decreasing, with its last value equal to len(${tk}) (${count(n)}); got ${count(prev)}.`,
      { key: ik, index: index.data.length - 1 });
    return null;
  }
  if (feats.shape.length === 2 && feats.shape[0] !== n) {
    f.error('E021', `'${tk}' has ${count(n)} spikes but '${fk}' has ${count(feats.shape[0]!)} rows.`, { key: fk });
    return null;
  }
  return Array.from(index.data, (end, e) => ({ times: tk, features: fk, rowStart: e === 0 ? 0 : index.data[e - 1]!, rowEnd: end }));
}

async function checkSlice(r: ArrayReader, f: ValidationFindings, s: Slice, base: Omit<SpikeInput, 'times' | 'features' | 'rowStart' | 'rowEnd'>): Promise<CheckedSpikes | null> {
  const times = await r.numeric(s.times, base.electrode);
  const features = await r.numeric(s.features, base.electrode);
  if (!times || !features) return null;
  return checkSpikes(f, { ...base, times, features, rowStart: s.rowStart, rowEnd: s.rowEnd });
}

export interface ElectrodeOptions {
  positionRange: [number, number] | null;
  names: string[] | null;
  featureNames: (e: number) => string[] | undefined;
  onProgress?: (p: LoadProgress) => void;
  notes: string[];
}

async function readDense(r: ArrayReader, f: ValidationFindings, opts: ElectrodeOptions, nameOf: (e: number, n: number) => string): Promise<ElectrodeSet | null> {
  const dense = await readLegacyDense(r, f, opts.notes);
  if (!dense) return null;
  const electrodes: ElectrodeData[] = [];
  let ok = true;
  let spikesRead = 0;
  dense.forEach((d, e) => {
    const electrode = nameOf(e, dense.length);
    const c = checkSpikes(f, { electrode, role: 'encoding', times: d.times, features: d.features, positionRange: opts.positionRange, featureNames: opts.featureNames(e) });
    spikesRead += c.times.length;
    opts.onProgress?.({ electrode: e + 1, nElectrodes: dense.length, name: electrode, spikesRead });
    if (!c.ok) ok = false;
    else electrodes.push({ name: electrode, nFeatures: d.features.shape[1]!, encodingSpikeTimes: c.times, encodingFeatures: c.features, decodingSpikeTimes: c.times, decodingFeatures: c.features });
  });
  return ok ? { electrodes, separateDecoding: false, layout: 'legacy-dense' } : null;
}

export async function readElectrodes(r: ArrayReader, f: ValidationFindings, opts: ElectrodeOptions): Promise<ElectrodeSet | null> {
  const perKeys = r.keys.filter((k) => PER_ELECTRODE.test(k));
  const concatKeys = r.keys.filter((k) => CONCAT_KEYS.includes(k) || CONCAT_KEYS.includes(k.replace(/^decoding_/, '')));
  if (r.has('multiunits')) {
    const others = [...perKeys, ...concatKeys];
    if (others.length > 0) {
      f.error('E064', `file contains the legacy dense 'multiunits' and spike keys (${others.slice(0, 3).join(', ')}${others.length > 3 ? ', …' : ''}); use one layout.`, { key: 'multiunits' });
      return null;
    }
    return readDense(r, f, opts, (e, n) => (opts.names && opts.names.length === n ? opts.names[e]! : `e${e}`));
  }
  if (perKeys.length > 0 && concatKeys.length > 0) {
    f.error('E064', `file contains both spike_times_<e> keys (${perKeys.slice(0, 3).join(', ')}${perKeys.length > 3 ? ', …' : ''}) and a concatenated ${concatKeys.join(', ')}; use one layout.`,
      { key: concatKeys[0] });
    return null;
  }
  const slices = perKeys.length > 0 ? perElectrodeLayout(r, f) : concatKeys.length > 0 ? await concatenatedLayout(r, f) : noSpikes(f);
  return slices && checkElectrodes(r, f, opts, slices);
}

/** Where each electrode's spikes are in the file, before their arrays are read and checked. */
interface ElectrodeSlices {
  enc: Slice[];
  /** null when the file decodes the encoding spikes themselves */
  dec: Slice[] | null;
  layout: ElectrodeSet['layout'];
}

function perElectrodeLayout(r: ArrayReader, f: ValidationFindings): ElectrodeSlices | null {
  const s = perElectrodeSlices(r.keys, f);
  const enc = [...s.enc.values()];
  const dec = s.dec ? [...s.enc.keys()].map((e) => s.dec!.get(e)).filter((x): x is Slice => x !== undefined) : null;
  if (dec && dec.length !== enc.length) return null;
  return { enc, dec, layout: 'per-electrode' };
}

async function concatenatedLayout(r: ArrayReader, f: ValidationFindings): Promise<ElectrodeSlices | null> {
  const enc = await concatenatedSlices(r, '', f);
  if (!enc) return null;
  if (enc.length === 0) {
    f.error('E030', "No electrodes: 'spike_times_index' is empty (0 electrodes), so there are no spikes to decode.", { key: 'spike_times_index' });
    return null;
  }
  const dec = await concatenatedSlices(r, 'decoding_', f);
  if (dec && dec.length !== enc.length) {
    f.error('E020', `decoding_spike_times_index has ${dec.length} electrodes but spike_times_index has ${enc.length}.`, { key: 'decoding_spike_times_index' });
    return null;
  }
  return { enc, dec, layout: 'concatenated' };
}

function noSpikes(f: ValidationFindings): null {
  f.error('E030', 'No spike data found. Expected spike_times_<e> + spike_waveform_features_<e>, or spike_times + spike_times_index + spike_waveform_features.');
  return null;
}

/** Reads and checks every electrode's slices; null when any of them failed (the findings say why). */
async function checkElectrodes(r: ArrayReader, f: ValidationFindings, opts: ElectrodeOptions, { enc, dec, layout }: ElectrodeSlices): Promise<ElectrodeSet | null> {
  if (opts.names && opts.names.length !== enc.length) {
    f.warn('W020', `'electrode_names' has ${opts.names.length} entries but the file has ${enc.length} electrodes; using e0, e1, ….`, { key: 'electrode_names' });
  }
  const nameOf = (e: number) => (opts.names && opts.names.length === enc.length ? opts.names[e]! : `e${e}`);
  const electrodes: ElectrodeData[] = [];
  let ok = true;
  let spikesRead = 0;
  for (let e = 0; e < enc.length; e++) {
    const electrode = nameOf(e);
    const base = { electrode, featureNames: opts.featureNames(e) };
    const a = await checkSlice(r, f, enc[e]!, { ...base, role: 'encoding', positionRange: opts.positionRange });
    const d = dec ? await checkSlice(r, f, dec[e]!, { ...base, role: 'decoding' }) : a;
    spikesRead += (a?.times.length ?? 0) + (dec ? d?.times.length ?? 0 : 0);
    opts.onProgress?.({ electrode: e + 1, nElectrodes: enc.length, name: electrode, spikesRead });
    if (!a || !d || !a.ok || !d.ok) {
      ok = false;
      continue;
    }
    if (a.nFeatures !== null && d.nFeatures !== null && a.nFeatures !== d.nFeatures) {
      f.error('E023', `Electrode '${electrode}': decoding features '${dec![e]!.features}' have ${d.nFeatures} columns but encoding features '${enc[e]!.features}' have ${a.nFeatures}.`,
        { key: dec![e]!.features, electrode });
      ok = false;
      continue;
    }
    electrodes.push({
      name: electrode,
      nFeatures: a.nFeatures ?? d.nFeatures ?? 0,
      encodingSpikeTimes: a.times,
      encodingFeatures: a.features,
      decodingSpikeTimes: d.times,
      decodingFeatures: d.features,
    });
  }
  // An empty electrode saved as 1-D (0,) has no feature count of its own: borrow the others' so that
  // its (0, D) shape fits the rest of the file.
  const known = electrodes.find((el) => el.nFeatures > 0)?.nFeatures ?? 1;
  for (const el of electrodes) if (el.nFeatures === 0) el.nFeatures = known;
  return ok ? { electrodes, separateDecoding: dec !== null, layout } : null;
}
