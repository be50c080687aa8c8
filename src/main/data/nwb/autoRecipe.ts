/**
 * The mapping chosen without asking, when the scan leaves one sensible choice: the best-ranked
 * position series, every mark source of one kind as electrodes, position timestamps as decoding bins.
 * When a choice is missing or ambiguous it says what is missing and what to choose instead.
 */
import { count, type ValidationFindings } from '../validation';
import { RECIPE_FORMAT, type ElectrodeChoice, type NwbRecipe, type PositionChoice } from './recipe';
import type { NwbScan, PositionCandidate, SpikeTableCandidate } from './scanTypes';

function stem(path: string): string {
  const base = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
  return base.replace(/\.(nwb|h5|hdf5)$/i, '');
}

function describeCandidate(c: PositionCandidate, scans: NwbScan[]): string {
  const file = scans.length > 1 ? `${scans[c.file]!.file}:` : '';
  return `${file}${c.path} ${c.shape.length === 1 ? `(${c.shape[0]},)` : `(${c.shape.join(', ')})`}`;
}

function choosePosition(scans: NwbScan[], f: ValidationFindings): PositionChoice | null {
  const all = scans.flatMap((s) => s.position);
  if (all.length === 0) {
    f.error('E001', 'No position found: no SpatialSeries (in a Position container under /processing/behavior, or elsewhere) and no linear_position column. ' +
      'Add the file that holds the position (one import may combine several files), or export position and marks together as clusterless-npz/1.',
    { key: '/processing/behavior' });
    return null;
  }
  const best = Math.min(...all.map((c) => c.rank));
  const top = all.filter((c) => c.rank === best);
  if (top.length > 1) {
    f.error('E001', `Several position series could be used: ${top.map((c) => describeCandidate(c, scans)).join(', ')}. Choose one in the mapping (recipe position.path); to average two LEDs, export them as one series.`,
      { key: top[0]!.path });
    return null;
  }
  const c = top[0]!;
  const width = c.shape.length === 1 ? 1 : c.shape[1]!;
  if (width > 2) {
    f.error('E011', `Position '${c.dataPath}' has ${width} columns; choose at most 2 (x, y) in the mapping (recipe position.columns).`,
      { key: c.dataPath, fix: 'use the first 2 columns' });
    return null;
  }
  return { file: c.file, path: c.path };
}

function markColumn(t: SpikeTableCandidate): string | null {
  if (t.featureColumns.length === 1) return t.featureColumns[0]!.name;
  const named = t.featureColumns.filter((c) => /feature|amplitude|mark/i.test(c.name));
  return named.length === 1 ? named[0]!.name : null;
}

function unitName(scans: NwbScan[], t: SpikeTableCandidate, row: number, used: Set<string>): string {
  const group = t.unitGroups[row];
  const candidates = [
    t.nUnits === 1 && scans.length > 1 ? stem(scans[t.file]!.file) : null,
    group ?? null,
    `${t.path.slice(t.path.lastIndexOf('/') + 1)}[${t.unitIds[row] ?? row}]`,
  ];
  const name = candidates.find((c) => c !== null && !used.has(c)) ?? `e${used.size}`;
  used.add(name);
  return name;
}

function describeUnmarked(tables: SpikeTableCandidate[], scans: NwbScan[]): string {
  return tables.map((t) => {
    const file = scans.length > 1 ? `${scans[t.file]!.file}:` : '';
    const waveforms = t.hasWaveforms ? ' (it has waveforms; peak amplitudes from them are not computed yet)' : '';
    return `${file}${t.path} has ${count(t.nUnits)} unit${t.nUnits === 1 ? '' : 's'} with ${count(t.nSpikes)} spike times but no per-spike mark column${waveforms}`;
  }).join('; ');
}

function chooseElectrodes(scans: NwbScan[], f: ValidationFindings): ElectrodeChoice[] | null {
  const tables = scans.flatMap((s) => s.spikeTables);
  const marked = tables.filter((t) => t.featureColumns.length > 0);
  const fe = scans.flatMap((s) => s.featureExtractions);
  const ses = scans.flatMap((s) => s.spikeEventSeries);
  const kinds = [marked.length > 0, fe.length > 0, ses.length > 0].filter(Boolean).length;
  if (kinds === 0) {
    const units = tables.length > 0 ? ` ${describeUnmarked(tables, scans)}.` : '';
    f.error('E030', `No marks found: clusterless decoding needs waveform features for every spike.${units} Expected a Units table with a per-spike column (X with X_index, or spyglass's (1, N, C) amplitude), a FeatureExtraction, or a SpikeEventSeries.`,
      { key: tables[0]?.path ?? '/units' });
    return null;
  }
  if (kinds > 1) {
    const found = [marked.length ? `${marked.length} Units table(s) with marks` : '', fe.length ? `${fe.length} FeatureExtraction` : '', ses.length ? `${ses.length} SpikeEventSeries` : ''].filter(Boolean);
    f.error('E030', `Marks are found in several forms (${found.join(', ')}); choose which ones are the electrodes in the mapping (recipe electrodes).`, { key: (marked[0] ?? fe[0] ?? ses[0])!.path });
    return null;
  }
  const used = new Set<string>();
  if (fe.length > 0) return fe.map((c) => ({ name: unitName(scans, asTable(c.path, c.file), 0, used), encoding: { kind: 'featureExtraction', file: c.file, path: c.path } }));
  if (ses.length > 0) return ses.map((c) => ({ name: unitName(scans, asTable(c.path, c.file), 0, used), encoding: { kind: 'spikeEventSeries', file: c.file, path: c.path } }));
  const out: ElectrodeChoice[] = [];
  for (const t of marked) {
    const column = markColumn(t);
    if (!column) {
      f.error('E030', `Table '${t.path}' has several per-spike columns (${t.featureColumns.map((c) => c.name).join(', ')}); choose the marks in the mapping (recipe electrodes[].encoding.column).`, { key: t.path });
      return null;
    }
    for (let row = 0; row < t.nUnits; row++) {
      out.push({ name: unitName(scans, t, row, used), encoding: { kind: 'units', file: t.file, path: t.path, rows: [row], column } });
    }
  }
  return out;
}

/** a container seen as a one-row table, for naming */
function asTable(path: string, file: number): SpikeTableCandidate {
  return { file, path, neurodataType: '', nUnits: 1, nSpikes: 0, spikesPerUnit: [], unitIds: [], unitGroups: [path.slice(path.lastIndexOf('/') + 1)], timeRange: null, featureColumns: [], hasWaveforms: false };
}

/** A recipe when every choice is unambiguous; otherwise null, with findings saying what to choose. */
export function autoRecipe(scans: NwbScan[], f: ValidationFindings): NwbRecipe | null {
  const position = choosePosition(scans, f);
  const electrodes = chooseElectrodes(scans, f);
  if (!position || !electrodes) return null;
  return { format: RECIPE_FORMAT, files: scans.map((s) => s.path), position, electrodes, bins: { kind: 'position' } };
}
