import { describe, expect, it } from 'vitest';
import type { Dataset } from '../../../shared/dataset';
import { projectionSentence } from '../../../shared/projection';
import { recordingProjection } from './recordingProjection';

function dataset(positionSeconds: number, rowStart: number, rows: number, decodingSpikes = 0): Dataset {
  return {
    positionTime: Float64Array.from({ length: positionSeconds * 10 + 1 }, (_, i) => i / 10),
    time: Float64Array.from({ length: rows }, (_, i) => rowStart + i * 0.002),
    electrodes: [{ decodingSpikeTimes: new Float64Array(decodingSpikes), decodingFeatures: new Float64Array(decodingSpikes * 4) }],
  } as unknown as Dataset;
}

describe('recordingProjection', () => {
  it('scales each stage by the recording rows over the decoded rows', () => {
    // 1200 s of positions, rows every 2 ms: 600 001 rows; 30 000 decoded
    const p = recordingProjection(dataset(1200, 1140, 30_000), { likelihoodMs: 30_000, localMs: 10_000, posteriorMs: 3_000 })!;
    expect(p.recordingRows).toBe(600_001);
    expect(p.decodedRows).toBe(30_000);
    expect(p.likelihoodMs).toBeCloseTo((30_000 * 600_001) / 30_000, 6);
    expect(p.localMs).toBeCloseTo((10_000 * 600_001) / 30_000, 6);
    expect(p.posteriorMs).toBeCloseTo((3_000 * 600_001) / 30_000, 6);
    // without window times or a peak there is nothing to give an interval or a memory from
    expect(p.totalCi95).toBeUndefined();
    expect(p.peakRssBytes).toBeUndefined();
  });

  it('says nothing when the decode covers the recording or has a single row', () => {
    expect(recordingProjection(dataset(10, 0, 5001), { likelihoodMs: 1, localMs: 0, posteriorMs: 1 })).toBeUndefined();
    expect(recordingProjection(dataset(10, 0, 1), { likelihoodMs: 1, localMs: 0, posteriorMs: 1 })).toBeUndefined();
  });

  it('counts the first batch once and gives the whole an interval from the spread of the later batches\' rates', () => {
    // a first batch of 5 000 rows slowed by one-off costs, then five of 100 ms ± 20 %
    const windows = [500, 100, 120, 80, 110, 90].map((ms) => ({ rows: 5000, ms }));
    const p = recordingProjection(dataset(1200, 1140, 30_000), { likelihoodMs: 1000, localMs: 0, posteriorMs: 0 }, windows)!;
    const total = 500 + 500 * ((600_001 - 5000) / 25_000);
    expect(p.likelihoodMs).toBeCloseTo(total, 6);
    expect(p.totalCi95![0]).toBeLessThan(total);
    expect(p.totalCi95![1]).toBeGreaterThan(total);
    // the later rates lie within ±20 % of their mean, and so does any resample's
    expect(p.totalCi95![0]).toBeGreaterThan(0.8 * total);
    expect(p.totalCi95![1]).toBeLessThan(1.2 * total);
    // steady batches: a narrow interval
    const steady = recordingProjection(dataset(1200, 1140, 30_000), { likelihoodMs: 1000, localMs: 0, posteriorMs: 0 }, windows.map((w, i) => ({ ...w, ms: i === 0 ? 500 : 100 })))!;
    expect(steady.totalCi95![1] - steady.totalCi95![0]).toBeLessThan(1e-6 * total);
  });

  it('scales the whole likelihood time of a decode computed in one batch, and gives it no interval', () => {
    // 30 000 rows in one batch took 31.5 s: the recording's 600 001 rows take 20× that, one-off costs and all
    const p = recordingProjection(dataset(1200, 1140, 30_000), { likelihoodMs: 31_500, localMs: 0, posteriorMs: 0 }, [{ rows: 30_000, ms: 31_400 }])!;
    expect(p.likelihoodMs).toBeCloseTo(31_500 * (600_001 / 30_000), 6);
    expect(p.totalCi95).toBeUndefined();
  });

  it('adds to the measured peak what grows with rows: decoding spikes, row times and the Local column', () => {
    // 30 000 rows (240 kB of times), 1 000 decoding spikes with 4 marks (40 kB); 20× the rows in the recording
    const p = recordingProjection(dataset(1200, 1140, 30_000, 1000), { likelihoodMs: 1, localMs: 1, posteriorMs: 1 }, [], 500e6)!;
    const perDecode = 2 * 30_000 * 8 + 1000 * 8 * 5;
    expect(p.peakRssBytes!.measured).toBe(500e6);
    expect(p.peakRssBytes!.projected).toBe(Math.round(500e6 + perDecode * (600_001 / 30_000 - 1)));
    expect(projectionSentence(p)).toMatch(/^The whole recording \(600,001 rows, 20\.0× this decode's 30,000\) would take about .*: likelihood .*, local likelihood .*, filter and smoother .*; peak memory about .* \(this decode: .*\)\.$/);
  });
});
