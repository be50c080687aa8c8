import { describe, expect, it } from 'vitest';
import type { Dataset } from '../../../shared/dataset';
import { recordingProjection } from './projection';

function dataset(positionSeconds: number, rowStart: number, rows: number): Dataset {
  return {
    positionTime: Float64Array.from({ length: positionSeconds * 10 + 1 }, (_, i) => i / 10),
    time: Float64Array.from({ length: rows }, (_, i) => rowStart + i * 0.002),
  } as unknown as Dataset;
}

describe('recordingProjection', () => {
  it('scales each stage by the recording rows over the decoded rows', () => {
    // 1200 s of positions, rows every 2 ms: 600 001 rows; 30 000 decoded
    const p = recordingProjection(dataset(1200, 1140, 30_000), { likelihoodMs: 30_000, localMs: 10_000, posteriorMs: 3_000 })!;
    expect(p.recordingRows).toBe(600_001);
    expect(p.likelihoodMs).toBeCloseTo((30_000 * 600_001) / 30_000, 6);
    expect(p.localMs).toBeCloseTo((10_000 * 600_001) / 30_000, 6);
    expect(p.posteriorMs).toBeCloseTo((3_000 * 600_001) / 30_000, 6);
  });

  it('says nothing when the decode covers the recording or has a single row', () => {
    expect(recordingProjection(dataset(10, 0, 5001), { likelihoodMs: 1, localMs: 0, posteriorMs: 1 })).toBeUndefined();
    expect(recordingProjection(dataset(10, 0, 1), { likelihoodMs: 1, localMs: 0, posteriorMs: 1 })).toBeUndefined();
  });
});
