/**
 * Scan views for mapping tests: a file with two LED series (ambiguous), a spyglass-style Units
 * table whose sorted units name their tetrode, a FeatureExtraction container and epochs.
 */
import type { NwbScan, NwbScanView, SpikeTableCandidate } from '../../../shared/nwb';

export function unitsTable(extra: Partial<SpikeTableCandidate> = {}): SpikeTableCandidate {
  return {
    file: 0, path: '/units', neurodataType: 'Units', nUnits: 3, nSpikes: 600, spikesPerUnit: [100, 200, 300],
    unitIds: [0, 1, 2], unitGroups: ['tet1', 'tet1', 'tet2'], timeRange: [0, 100],
    featureColumns: [
      { name: 'amplitude', form: 'spyglass', shape: [1, 600, 4], nFeatures: 4 },
      { name: 'peak_width', form: 'ragged', shape: [600, 1], nFeatures: 1 },
    ],
    hasWaveforms: false,
    ...extra,
  };
}

export function nwbScan(extra: Partial<NwbScan> = {}): NwbScan {
  const led = (name: string, rank: 1 | 2) => ({
    file: 0, path: `/processing/behavior/position/${name}`, rank, neurodataType: 'SpatialSeries', dataPath: `/processing/behavior/position/${name}/data`,
    shape: [3000, 2], unit: 'meters', conversion: 0.001, offset: 0, time: { kind: 'timestamps' as const, path: `/processing/behavior/position/${name}/timestamps`, n: 3000 },
    timeRange: [0, 100] as [number, number], medianRateHz: 30, nanPct: 1.5,
  });
  return {
    path: '/data/session.nwb', file: 'session.nwb', nwbVersion: '2.7.0', identifier: 'session',
    position: [led('led_0', 1), led('led_1', 1)],
    spikeTables: [unitsTable()],
    featureExtractions: [{ file: 0, path: '/processing/ecephys/features_0', nSpikes: 50, nChannels: 2, featuresPerChannel: 2, featureNames: ['amp', 'width'], timeRange: [0, 90] }],
    spikeEventSeries: [],
    intervals: [{ file: 0, path: '/intervals/epochs', rows: [{ start: 0, stop: 50 }, { start: 50, stop: 100 }] }],
    electrodeGroups: ['tet1', 'tet2'],
    problems: [],
    ...extra,
  };
}

/** an ambiguous scan: no recipe, findings say what to choose */
export function ambiguousView(): NwbScanView {
  return {
    scans: [nwbScan()], recipe: null, recipeOrigin: null, savedRecipePath: null,
    findings: [{ code: 'E001', severity: 'error', message: 'session.nwb: Several position series could be used', key: '/processing/behavior/position/led_0' }],
  };
}
