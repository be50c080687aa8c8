/**
 * The mapping step's state: what the person chose from a scan (position series and columns, which
 * tables or containers are electrodes, which columns are features, the decoding bins), started from
 * the saved or automatic recipe when there is one, else from the best-ranked candidates.
 */
import type {
  BinChoice, ElectrodeChoice, NwbRecipe, NwbScan, NwbScanView, PositionCandidate, SpikeSource, SpikeTableCandidate,
} from '../../../shared/nwb';

export type SourceKind = SpikeSource['kind'];
export type PeakSign = 'neg' | 'pos' | 'abs';

export interface ElectrodeRow {
  /** table rows merged into this electrode (units); [] for a container */
  rows: number[];
  /** what the candidate is, e.g. "units[3] · tet2" */
  label: string;
  name: string;
  include: boolean;
  nSpikes: number;
  /** carried over from the recipe the state started from; the step does not edit them */
  decoding?: SpikeSource;
}

/** A table or container whose mark column and features are chosen together. */
export interface MarkSource {
  key: string;
  kind: SourceKind;
  file: number;
  path: string;
  label: string;
  /** per-spike columns a units table offers (empty for containers) */
  columns: { name: string; nFeatures: number }[];
  column: string | null;
  /** one label per flattened feature of the chosen column */
  featureLabels: string[];
  keep: boolean[];
  /** units tables whose rows name an electrode group can be merged per group */
  canGroup: boolean;
  grouped: boolean;
  peakSign: PeakSign;
  electrodes: ElectrodeRow[];
  /** SpikeEventSeries settings kept from the recipe */
  alignSample?: number;
  toMicrovolts?: boolean;
}

export interface MappingState {
  files: string[];
  /** `${file}:${path}` of the position series, or null when none is chosen */
  positionKey: string | null;
  xColumn: number;
  /** null: one dimension */
  yColumn: number | null;
  flipY: boolean;
  applyConversion: boolean;
  toCm: boolean;
  sources: MarkSource[];
  /** 'dataset': an explicit array from the file, chosen in a recipe file (kept as it is) */
  binsKind: 'position' | 'uniform' | 'dataset';
  binStepMs: number;
  binStart: number | null;
  binStop: number | null;
  /** recipe fields the step shows but does not edit (grid, params, decoding position, encoding intervals) */
  kept: Pick<NwbRecipe, 'grid' | 'params' | 'decodingPosition' | 'encodingIntervals'> & { datasetBins?: Extract<BinChoice, { kind: 'dataset' }> };
}

/** The fields a form control sets as they are; a position or a source changes through the functions below. */
export type MappingChoice = Partial<Pick<MappingState,
  'xColumn' | 'yColumn' | 'flipY' | 'applyConversion' | 'toCm' | 'binsKind' | 'binStepMs' | 'binStart' | 'binStop'>>;

export const DEFAULT_BIN_STEP_MS = 2;

export const keyOf = (file: number, path: string): string => `${file}:${path}`;

const leaf = (path: string): string => path.slice(path.lastIndexOf('/') + 1) || path;

export function allPositions(scans: readonly NwbScan[]): PositionCandidate[] {
  return scans.flatMap((s) => s.position).sort((a, b) => a.rank - b.rank);
}

export function positionWidth(c: PositionCandidate): number {
  return c.shape.length === 1 ? 1 : c.shape[1]!;
}

function prefix(scans: readonly NwbScan[], file: number): string {
  return scans.length > 1 ? `${scans[file]?.file ?? `file ${file}`}:` : '';
}

function unitRow(t: SpikeTableCandidate, row: number): string {
  const group = t.unitGroups[row];
  return `${leaf(t.path)}[${t.unitIds[row] ?? row}]${group ? ` · ${group}` : ''}`;
}

/** One electrode per row, or one per electrode group (rows merged) when `grouped`. */
export function unitElectrodes(t: SpikeTableCandidate, grouped: boolean, include: boolean): ElectrodeRow[] {
  const rows = Array.from({ length: t.nUnits }, (_, i) => i);
  const spikes = (rs: number[]) => rs.reduce((n, r) => n + (t.spikesPerUnit[r] ?? 0), 0);
  const own = (r: number) => `${leaf(t.path)}[${t.unitIds[r] ?? r}]`;
  if (!grouped) return rows.map((r) => ({ rows: [r], label: unitRow(t, r), name: t.unitGroups[r] ?? own(r), include, nSpikes: spikes([r]) }));
  const byGroup = new Map<string, number[]>();
  for (const r of rows) {
    const g = t.unitGroups[r] ?? own(r);
    byGroup.set(g, [...(byGroup.get(g) ?? []), r]);
  }
  return [...byGroup].map(([g, rs]) => ({ rows: rs, label: `${g} (${rs.length} unit${rs.length === 1 ? '' : 's'})`, name: g, include, nSpikes: spikes(rs) }));
}

function columnLabels(n: number, name: string): string[] {
  return Array.from({ length: n }, (_, i) => `${name}[${i}]`);
}

function tableSource(scans: readonly NwbScan[], t: SpikeTableCandidate): MarkSource {
  const named = t.featureColumns.filter((c) => /feature|amplitude|mark/i.test(c.name));
  const column = t.featureColumns.length === 1 ? t.featureColumns[0]! : named.length === 1 ? named[0]! : t.featureColumns[0] ?? null;
  return {
    key: keyOf(t.file, t.path), kind: 'units', file: t.file, path: t.path,
    label: `${prefix(scans, t.file)}${t.path} (${t.neurodataType || 'table'}, ${t.nUnits} row${t.nUnits === 1 ? '' : 's'})`,
    columns: t.featureColumns.map((c) => ({ name: c.name, nFeatures: c.nFeatures })),
    column: column?.name ?? null,
    featureLabels: column ? columnLabels(column.nFeatures, column.name) : [],
    keep: column ? new Array<boolean>(column.nFeatures).fill(true) : [],
    canGroup: t.nUnits > 1 && t.unitGroups.some((g) => g !== null),
    grouped: false, peakSign: 'neg',
    electrodes: column ? unitElectrodes(t, false, true) : [],
  };
}

/** Every mark source the scans offer; units tables without a per-spike column offer none. */
export function markSources(scans: readonly NwbScan[]): MarkSource[] {
  const out: MarkSource[] = [];
  for (const s of scans) {
    for (const t of s.spikeTables) if (t.featureColumns.length > 0) out.push(tableSource(scans, t));
    for (const c of s.featureExtractions) {
      const labels = Array.from({ length: c.nChannels * c.featuresPerChannel }, (_, i) => `ch${Math.floor(i / c.featuresPerChannel)} · ${c.featureNames[i % c.featuresPerChannel] ?? `feature ${i % c.featuresPerChannel}`}`);
      out.push({
        key: keyOf(c.file, c.path), kind: 'featureExtraction', file: c.file, path: c.path, label: `${prefix(scans, c.file)}${c.path} (FeatureExtraction)`,
        columns: [], column: null, featureLabels: labels, keep: labels.map(() => true), canGroup: false, grouped: false, peakSign: 'neg',
        electrodes: [{ rows: [], label: leaf(c.path), name: leaf(c.path), include: true, nSpikes: c.nSpikes }],
      });
    }
    for (const c of s.spikeEventSeries) {
      const labels = Array.from({ length: c.nChannels }, (_, i) => `ch${i} peak`);
      out.push({
        key: keyOf(c.file, c.path), kind: 'spikeEventSeries', file: c.file, path: c.path, label: `${prefix(scans, c.file)}${c.path} (SpikeEventSeries, ${c.nSamples} samples)`,
        columns: [], column: null, featureLabels: labels, keep: labels.map(() => true), canGroup: false, grouped: false, peakSign: 'neg',
        electrodes: [{ rows: [], label: leaf(c.path), name: leaf(c.path), include: true, nSpikes: c.nSpikes }],
      });
    }
  }
  return out;
}

/** Switches a units source to another mark column: its features start all kept. */
export function chooseColumn(source: MarkSource, column: string): void {
  const c = source.columns.find((x) => x.name === column);
  if (!c) return;
  source.column = c.name;
  source.featureLabels = columnLabels(c.nFeatures, c.name);
  source.keep = new Array<boolean>(c.nFeatures).fill(true);
}

/** Rebuilds a units source's electrodes per row or per electrode group; included as the source was. */
export function setGrouped(source: MarkSource, scans: readonly NwbScan[], grouped: boolean): void {
  const t = scans[source.file]?.spikeTables.find((x) => x.path === source.path);
  if (!t) return;
  const include = source.electrodes.some((e) => e.include);
  source.grouped = grouped;
  source.electrodes = unitElectrodes(t, grouped, include);
}

function positionDefaults(state: MappingState, c: PositionCandidate | undefined): void {
  state.positionKey = c ? keyOf(c.file, c.path) : null;
  const width = c ? positionWidth(c) : 1;
  state.xColumn = 0;
  state.yColumn = width >= 2 ? 1 : null;
}

/** Picks a position series; its columns start as x = 0 and y = 1 (when it has two or more). */
export function choosePosition(state: MappingState, scans: readonly NwbScan[], key: string): void {
  positionDefaults(state, allPositions(scans).find((c) => keyOf(c.file, c.path) === key));
  state.flipY = false;
}

function emptyState(view: NwbScanView): MappingState {
  return {
    files: view.scans.map((s) => s.path), positionKey: null, xColumn: 0, yColumn: null, flipY: false, applyConversion: true, toCm: true,
    sources: markSources(view.scans), binsKind: 'position', binStepMs: DEFAULT_BIN_STEP_MS, binStart: null, binStop: null, kept: {},
  };
}

/** Without a recipe: the best-ranked position, and every source of the first kind found as electrodes. */
function guess(state: MappingState, view: NwbScanView): void {
  positionDefaults(state, allPositions(view.scans)[0]);
  const firstKind = state.sources[0]?.kind;
  for (const s of state.sources) for (const e of s.electrodes) e.include = s.kind === firstKind;
}

function sameRows(a: number[], b: number[]): boolean {
  return a.length === b.length && a.every((r, i) => r === b[i]);
}

function applyElectrodes(state: MappingState, view: NwbScanView, electrodes: ElectrodeChoice[]): void {
  for (const s of state.sources) for (const e of s.electrodes) e.include = false;
  electrodes.forEach((choice, i) => {
    const enc = choice.encoding;
    const source = state.sources.find((s) => s.key === keyOf(enc.file, enc.path) && s.kind === enc.kind);
    if (!source) return;
    if (enc.kind === 'units') {
      if (source.column !== enc.column) chooseColumn(source, enc.column);
      const sorted = [...enc.rows].sort((a, b) => a - b);
      let row = source.electrodes.find((e) => sameRows(e.rows, sorted));
      if (!row) {
        // a partition the per-row and per-group lists do not have: the recipe's own grouping
        const t = view.scans[source.file]?.spikeTables.find((x) => x.path === source.path);
        source.electrodes = source.electrodes.filter((e) => !e.rows.some((r) => sorted.includes(r)));
        row = { rows: sorted, label: `rows ${sorted.join(', ')}`, name: '', include: true, nSpikes: sorted.reduce((n, r) => n + (t?.spikesPerUnit[r] ?? 0), 0) };
        source.electrodes.push(row);
      }
      if (sorted.length > 1 && source.canGroup) source.grouped = true;
      row.include = true;
      row.name = choice.name ?? `e${i}`;
      if (choice.decoding) row.decoding = choice.decoding;
    } else {
      const row = source.electrodes[0]!;
      row.include = true;
      row.name = choice.name ?? row.name;
      if (choice.decoding) row.decoding = choice.decoding;
      if (enc.kind === 'spikeEventSeries') {
        source.peakSign = enc.peakSign ?? 'neg';
        if (enc.alignSample !== undefined) source.alignSample = enc.alignSample;
        if (enc.toMicrovolts !== undefined) source.toMicrovolts = enc.toMicrovolts;
      }
    }
    if (enc.features) source.keep = source.keep.map((_, k) => enc.features!.includes(k));
  });
}

function fromRecipe(state: MappingState, view: NwbScanView, r: NwbRecipe): void {
  const c = allPositions(view.scans).find((x) => x.file === r.position.file && x.path === r.position.path);
  positionDefaults(state, c);
  if (r.position.columns) {
    state.xColumn = r.position.columns[0] ?? 0;
    state.yColumn = r.position.columns[1] ?? null;
  }
  state.flipY = r.position.flipY ?? false;
  state.applyConversion = r.position.applyConversion ?? true;
  state.toCm = r.position.toCm ?? true;
  applyElectrodes(state, view, r.electrodes);
  const kept: MappingState['kept'] = {};
  if (r.bins.kind === 'uniform') {
    state.binsKind = 'uniform';
    state.binStepMs = r.bins.stepS * 1000;
    state.binStart = r.bins.start ?? null;
    state.binStop = r.bins.stop ?? null;
  } else if (r.bins.kind === 'dataset') {
    state.binsKind = 'dataset';
    kept.datasetBins = r.bins;
  }
  if (r.grid) kept.grid = r.grid;
  if (r.params) kept.params = r.params;
  if (r.decodingPosition) kept.decodingPosition = r.decodingPosition;
  if (r.encodingIntervals) kept.encodingIntervals = r.encodingIntervals;
  state.kept = kept;
}

/** The state a scan starts the step in: its recipe's choices, or the best guess. */
export function initialMapping(view: NwbScanView): MappingState {
  const state = emptyState(view);
  if (view.recipe) fromRecipe(state, view, view.recipe);
  else guess(state, view);
  return state;
}
