/**
 * From the mapping step's choices to a recipe the service checks and saves, or the list of what is
 * still to choose (said the way a person fixes it in the form).
 */
import { RECIPE_FORMAT, type BinChoice, type ElectrodeChoice, type NwbRecipe, type NwbScan, type PositionChoice, type SpikeSource } from '../../../shared/nwb';
import { allPositions, keyOf, positionWidth, type ElectrodeRow, type MappingState, type MarkSource } from './mappingState';

export interface RecipeDraft {
  recipe: NwbRecipe | null;
  /** what blocks the recipe: empty when `recipe` is set */
  problems: string[];
}

function position(state: MappingState, scans: readonly NwbScan[], problems: string[]): PositionChoice | null {
  const c = allPositions(scans).find((x) => keyOf(x.file, x.path) === state.positionKey);
  if (!c) {
    problems.push('Choose a position series.');
    return null;
  }
  const width = positionWidth(c);
  const columns = state.yColumn === null ? [state.xColumn] : [state.xColumn, state.yColumn];
  if (columns.some((k) => k < 0 || k >= width)) problems.push(`Position ${c.path} has ${width} column(s); choose x and y among 0–${width - 1}.`);
  if (columns.length === 2 && columns[0] === columns[1]) problems.push('x and y must be different columns.');
  const out: PositionChoice = { file: c.file, path: c.path };
  // the loader's default takes every column of a 1- or 2-column series; say it only when it differs
  const natural = width === columns.length && columns.every((k, i) => k === i);
  if (!natural) out.columns = columns;
  if (!state.applyConversion) out.applyConversion = false;
  if (!state.toCm) out.toCm = false;
  if (state.flipY && columns.length === 2) out.flipY = true;
  return out;
}

function features(source: MarkSource): number[] | undefined {
  if (source.keep.every(Boolean)) return undefined;
  return source.keep.flatMap((k, i) => (k ? [i] : []));
}

function encoding(source: MarkSource, row: ElectrodeRow): SpikeSource {
  const f = features(source);
  const extra = f ? { features: f } : {};
  if (source.kind === 'units') return { kind: 'units', file: source.file, path: source.path, rows: row.rows, column: source.column!, ...extra };
  if (source.kind === 'featureExtraction') return { kind: 'featureExtraction', file: source.file, path: source.path, ...extra };
  const s: SpikeSource = { kind: 'spikeEventSeries', file: source.file, path: source.path, ...extra };
  if (source.peakSign !== 'neg') s.peakSign = source.peakSign;
  if (source.alignSample !== undefined) s.alignSample = source.alignSample;
  if (source.toMicrovolts !== undefined) s.toMicrovolts = source.toMicrovolts;
  return s;
}

/** names as typed, made unique ("tet1", "tet1 (2)") and never empty */
function uniqueName(wanted: string, fallback: string, used: Set<string>): string {
  const base = wanted.trim() || fallback;
  let name = base;
  for (let k = 2; used.has(name); k++) name = `${base} (${k})`;
  used.add(name);
  return name;
}

function electrodes(state: MappingState, problems: string[]): ElectrodeChoice[] {
  const out: ElectrodeChoice[] = [];
  const used = new Set<string>();
  const before = problems.length;
  for (const source of state.sources) {
    const chosen = source.electrodes.filter((e) => e.include);
    if (chosen.length === 0) continue;
    if (source.kind === 'units' && !source.column) {
      problems.push(`${source.path}: choose the column that holds the marks.`);
      continue;
    }
    if (!source.keep.some(Boolean)) {
      problems.push(`${source.path}: keep at least one feature.`);
      continue;
    }
    for (const row of chosen) {
      const choice: ElectrodeChoice = { name: uniqueName(row.name, `e${out.length}`, used), encoding: encoding(source, row) };
      if (row.decoding) choice.decoding = row.decoding;
      out.push(choice);
    }
  }
  if (out.length === 0 && problems.length === before) problems.push('Choose at least one electrode (tick its box).');
  return out;
}

function bins(state: MappingState, problems: string[]): BinChoice {
  if (state.binsKind === 'dataset' && state.kept.datasetBins) return state.kept.datasetBins;
  if (state.binsKind !== 'uniform') return { kind: 'position' };
  if (!(Number.isFinite(state.binStepMs) && state.binStepMs > 0)) {
    problems.push('The uniform bin width must be a positive number of milliseconds.');
    return { kind: 'position' };
  }
  const b: BinChoice = { kind: 'uniform', stepS: state.binStepMs / 1000 };
  if (state.binStart !== null && Number.isFinite(state.binStart)) b.start = state.binStart;
  if (state.binStop !== null && Number.isFinite(state.binStop)) b.stop = state.binStop;
  if (b.start !== undefined && b.stop !== undefined && b.stop <= b.start) problems.push('The bins must stop after they start.');
  return b;
}

/** The recipe the choices describe, or what is still missing. */
export function toRecipe(state: MappingState, scans: readonly NwbScan[]): RecipeDraft {
  const problems: string[] = [];
  const pos = position(state, scans, problems);
  const els = electrodes(state, problems);
  const b = bins(state, problems);
  if (!pos || problems.length > 0) return { recipe: null, problems };
  const recipe: NwbRecipe = { format: RECIPE_FORMAT, files: [...state.files], position: pos, electrodes: els, bins: b };
  const { datasetBins: _bins, ...kept } = state.kept;
  return { recipe: { ...recipe, ...kept }, problems };
}
