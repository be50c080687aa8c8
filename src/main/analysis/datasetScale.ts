/**
 * How a dataset compares with the synthetic presets (encoding spikes, electrodes, bins): one sentence
 * a lab member can read before a run, e.g. "33× the encoding spikes of the 'realistic' preset".
 */
import type { PresetInfo } from '../../shared/api';
import type { DatasetSummary } from '../../shared/dataset';

export interface DatasetScale {
  /** the largest preset this dataset is at least as big as (by total spikes), or null if smaller than all */
  nearestPreset: string | null;
  spikesRatio: number;
  electrodesRatio: number;
  binsRatio: number;
  sentence: string;
}

const ratio = (a: number, b: number): number => (b > 0 ? a / b : Infinity);
const fmt = (r: number): string => (r >= 10 ? r.toFixed(0) : r >= 1 ? r.toFixed(1) : r.toFixed(2));

export function datasetScale(s: DatasetSummary, presets: readonly PresetInfo[]): DatasetScale {
  // encoding spikes: a file without separate decoding spikes decodes the same ones again, so a
  // sum of both would count them twice
  const spikes = s.nEncodingSpikes;
  const presetSpikes = (p: PresetInfo): number => p.nElectrodes * p.meanEncodingSpikes;
  const sorted = [...presets].sort((a, b) => presetSpikes(a) - presetSpikes(b));
  const below = sorted.filter((p) => presetSpikes(p) <= spikes);
  const ref = below[below.length - 1] ?? sorted[0];
  if (!ref) return { nearestPreset: null, spikesRatio: NaN, electrodesRatio: NaN, binsRatio: NaN, sentence: 'no presets to compare with' };
  const spikesRatio = ratio(spikes, presetSpikes(ref));
  const electrodesRatio = ratio(s.nElectrodes, ref.nElectrodes);
  const binsRatio = ratio(s.nBins, ref.nPositionBins);
  const sentence =
    `${spikes.toLocaleString('en-US')} encoding spikes on ${s.nElectrodes} electrodes and ${s.nBins} bins: ` +
    `${fmt(spikesRatio)}× the encoding spikes, ${fmt(electrodesRatio)}× the electrodes and ${fmt(binsRatio)}× the bins of the ` +
    `'${ref.name}' preset${below.length === 0 ? ' (smaller than every preset)' : ''}`;
  return { nearestPreset: below.length ? ref.name : null, spikesRatio, electrodesRatio, binsRatio, sentence };
}
