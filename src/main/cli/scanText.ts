/**
 * `kde-profiler scan` as text: each file's candidates (position series, spike tables with their
 * per-spike columns, FeatureExtraction, SpikeEventSeries, intervals), then the recipe the import
 * would use, or nothing when the mapping is still to be chosen.
 */
import type { NwbRecipe, NwbScan, NwbScanView, PositionCandidate, SpikeSource } from '../../shared/nwb';

const n = (v: number): string => v.toLocaleString('en-US');
const sec = (v: number): string => (Math.abs(v) >= 1e5 ? v.toExponential(4) : String(Number(v.toPrecision(6))));
const range = (r: [number, number] | null): string => (r ? `${sec(r[0])}–${sec(r[1])} s` : 'no time range');
const shape = (s: number[]): string => (s.length === 1 ? `(${s[0]},)` : `(${s.join(', ')})`);

function position(c: PositionCandidate): string {
  const unit = c.unit ? `${c.unit}${c.conversion !== 1 ? ` × ${c.conversion}` : ''}${c.offset !== 0 ? ` + ${c.offset}` : ''}` : 'no unit';
  const time = c.time.kind === 'timestamps' ? 'timestamps' : `${c.time.rateHz} Hz from ${c.time.startingTime} s`;
  const facts = [shape(c.shape), c.neurodataType, unit, range(c.timeRange), time];
  if (c.medianRateHz !== null) facts.push(`median ${Number(c.medianRateHz.toPrecision(4))} Hz`);
  if (c.nanPct !== null) facts.push(`NaN ${c.nanPct.toFixed(1)} %`);
  return `    [rank ${c.rank}] ${c.path}  ${facts.join(' · ')}`;
}

function scanLines(s: NwbScan): string[] {
  const head = [s.nwbVersion ? `NWB ${s.nwbVersion}` : 'HDF5', s.identifier ? `identifier ${s.identifier}` : '', s.timestampsReferenceTime ? `clock ${s.timestampsReferenceTime}` : '']
    .filter(Boolean).join(' · ');
  const out = [`${s.file}  ${head}`, '  position:'];
  out.push(...(s.position.length ? s.position.map(position) : ['    none']));
  out.push('  spike tables:');
  out.push(...(s.spikeTables.length ? s.spikeTables.map((t) => {
    const cols = t.featureColumns.length ? t.featureColumns.map((c) => `${c.name} (${c.form} ${shape(c.shape)}, ${c.nFeatures} features)`).join(', ') : 'none';
    const groups = [...new Set(t.unitGroups.filter((g): g is string => g !== null))];
    return `    ${t.path}  ${t.neurodataType || 'table'} · ${n(t.nUnits)} rows · ${n(t.nSpikes)} spikes · ${range(t.timeRange)}` +
      `${groups.length ? ` · groups ${groups.join(', ')}` : ''} · per-spike columns: ${cols}${t.hasWaveforms ? ' · waveforms' : ''}`;
  }) : ['    none']));
  if (s.featureExtractions.length) {
    out.push('  FeatureExtraction:', ...s.featureExtractions.map((c) =>
      `    ${c.path}  ${n(c.nSpikes)} spikes · ${c.nChannels} channels × ${c.featuresPerChannel} (${c.featureNames.join(', ') || 'unnamed'}) · ${range(c.timeRange)}`));
  }
  if (s.spikeEventSeries.length) {
    out.push('  SpikeEventSeries:', ...s.spikeEventSeries.map((c) =>
      `    ${c.path}  ${n(c.nSpikes)} spikes · ${c.nChannels} channels × ${c.nSamples} samples · ${c.unit ?? 'no unit'} · ${range(c.timeRange)}`));
  }
  if (s.intervals.length) {
    out.push('  intervals:', ...s.intervals.map((t) =>
      `    ${t.path}  ${t.rows.length} row(s)${t.rows.length ? `: ${t.rows.slice(0, 5).map((r) => `[${sec(r.start)}, ${sec(r.stop)})`).join(' ')}${t.rows.length > 5 ? ' …' : ''}` : ''}`));
  }
  if (s.electrodeGroups.length) out.push(`  electrode groups: ${s.electrodeGroups.join(', ')}`);
  return out;
}

function sourceText(s: SpikeSource, files: string[]): string {
  const where = `${files.length > 1 ? `${files[s.file] ?? s.file}:` : ''}${s.path}`;
  const features = s.features ? ` features ${s.features.join(',')}` : '';
  if (s.kind === 'units') return `units ${where} rows ${s.rows.join(',')} column ${s.column}${features}`;
  return `${s.kind} ${where}${features}`;
}

function recipeLines(r: NwbRecipe, origin: string): string[] {
  const files = r.files.map((f) => f.slice(Math.max(f.lastIndexOf('/'), f.lastIndexOf('\\')) + 1));
  const p = r.position;
  const extras = [p.columns ? `columns ${p.columns.join(',')}` : '', p.flipY ? 'flip y' : '', p.applyConversion === false ? 'no conversion' : ''].filter(Boolean);
  const bins = r.bins.kind === 'position' ? 'the position timestamps' : r.bins.kind === 'uniform' ? `uniform, ${r.bins.stepS * 1000} ms` : `the array ${r.bins.path}`;
  return [
    `recipe (${origin}):`,
    `  position    ${files.length > 1 ? `${files[p.file]}:` : ''}${p.path}${extras.length ? ` (${extras.join(', ')})` : ''}`,
    `  electrodes  ${r.electrodes.length}`,
    ...r.electrodes.map((e, i) => `    ${(e.name ?? `e${i}`).padEnd(12)} ${sourceText(e.encoding, files)}${e.decoding ? `; decoding ${sourceText(e.decoding, files)}` : ''}`),
    `  bins        ${bins}`,
  ];
}

export function scanViewText(view: NwbScanView): string {
  const lines = view.scans.flatMap((s) => [...scanLines(s), '']);
  if (view.recipe) lines.push(...recipeLines(view.recipe, view.recipeOrigin === 'saved' ? `saved in ${view.savedRecipePath}` : 'automatic'));
  else lines.push('recipe: none; the mapping is ambiguous or data is missing (see below)');
  return `${lines.join('\n')}\n`;
}
