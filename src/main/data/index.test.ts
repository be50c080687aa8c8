import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { inspectData, loadDataset, previewDataset } from './index';

const fixture = fileURLToPath(new URL('../../../test/fixtures/kde_ref_medium_seed42_D2.npz', import.meta.url));

describe('data public surface', () => {
  it('loads a preset and a file through one DataSource', async () => {
    const p = await loadDataset({ kind: 'preset', name: 'tiny', seed: 3, features: 3, featureScale: 2 });
    expect(p.source).toBe('preset:tiny');
    expect(p.electrodes[0]!.nFeatures).toBe(3);
    const f = await loadDataset({ kind: 'file', path: fixture });
    expect(f.electrodes.length).toBe(16);
  });

  it('inspects a file: summary, findings and a decimated preview', async () => {
    const r = await inspectData({ kind: 'file', path: fixture });
    expect(r.findings.filter((x) => x.severity === 'error')).toEqual([]);
    expect(r.summary!.nElectrodes).toBe(16);
    expect(r.summary!.nBins).toBe(500);
    expect(r.summary!.hasExpected).toBe(true);
    expect(r.preview!.positionTime.length).toBe(2000);
    expect(r.preview!.position.length).toBe(2000);
    expect(r.preview!.spikeTimes.length).toBe(16);
  });

  it('thins long series to at most 2000 points, keeping the ends and pairing time with position', () => {
    const n = 5001;
    const positionTime = Float64Array.from({ length: n }, (_, i) => i);
    const position = Float64Array.from({ length: 2 * n }, (_, i) => (i % 2 === 0 ? i / 2 : -1));
    const preview = previewDataset({
      name: 'x', source: 'x', positionTime, position, positionDims: 2, time: new Float64Array(1),
      electrodes: [{ name: 'a', nFeatures: 1, encodingSpikeTimes: positionTime, encodingFeatures: positionTime, decodingSpikeTimes: positionTime, decodingFeatures: positionTime }],
      placeBinCenters: new Float64Array(2), params: { positionStd: 1, waveformStd: 1, blockSize: 1 }, notes: [],
    });
    expect(preview.positionTime.length).toBeLessThanOrEqual(2000);
    expect(preview.position).toEqual(preview.positionTime);
    expect(preview.positionTime[0]).toBe(0);
    expect(preview.positionTime.at(-1)).toBe(n - 1);
    expect(preview.spikeTimes[0]!.times.length).toBeLessThanOrEqual(2000);
  });

  it('reports unreadable or unsupported files as findings, and throws from loadDataset', async () => {
    const missing = await inspectData({ kind: 'file', path: 'no/such/file.npz' });
    expect(missing.summary).toBeNull();
    expect(missing.findings[0]!.code).toBe('NOT_FOUND');
    const nwb = await inspectData({ kind: 'file', path: 'no/such/session.nwb' });
    expect(nwb.summary).toBeNull();
    expect(nwb.findings[0]!.code).toBe('NOT_FOUND');
    await expect(loadDataset({ kind: 'file', path: 'no/such/session.nwb' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
