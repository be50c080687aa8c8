import { mkdir, mkdtemp, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeNpyFloat32, encodeNpyFloat64, npyHeader } from '../../data';
import { likelihoodRequest } from './likelihoodRequest';
import { forEachRowChunk, likelihoodLayout } from './likelihoodRows';
import { likelihoodView } from './likelihoodView';

// a decode of production shape in miniature: 20 000 time rows × 50 position bins
const N_TIME = 20_000;
const N_BINS = 50;
/** a one-row event far from the walking peak, as a replay would be */
const EVENT_ROW = 10_007;
const EVENT_BIN = 3;
/** a row the decoder had nothing for, and a value nobody computed */
const EMPTY_ROW = 20;
const NAN_AT = [21, 5] as const;

const peakBin = (r: number): number => Math.floor(r / 40) % N_BINS;
const binCenter = (c: number): number => 2 * c + 1;
const timeOf = (r: number): number => r * 0.002;
const trueAt = (r: number): number | null => (r % 97 === 0 ? null : binCenter(peakBin(r)) + 0.5);

/** what the file holds, as float32 rounds it */
const raw = new Float32Array(N_TIME * N_BINS);
for (let r = 0; r < N_TIME; r++) {
  for (let c = 0; c < N_BINS; c++) raw[r * N_BINS + c] = -((c - peakBin(r)) ** 2) / 8 - (r % 7);
}
raw[EVENT_ROW * N_BINS + EVENT_BIN] = 5;
raw.fill(-Infinity, EMPTY_ROW * N_BINS, (EMPTY_ROW + 1) * N_BINS);
raw[NAN_AT[0] * N_BINS + NAN_AT[1]] = Number.NaN;

/** the reduction done the plain way, over the whole array in memory: max of the block, argmax of its sum */
function expectedBlock(r0: number, r1: number, relative = false): { max: number[]; decodedBin: number } {
  const max = new Array<number>(N_BINS).fill(-Infinity);
  const sum = new Array<number>(N_BINS).fill(0);
  for (let r = r0; r < r1; r++) {
    const row = Array.from(raw.subarray(r * N_BINS, (r + 1) * N_BINS));
    const rowMax = Math.max(...row.filter((v) => !Number.isNaN(v)));
    if (!Number.isFinite(rowMax)) continue;
    row.forEach((v, c) => {
      if (!Number.isNaN(v)) {
        sum[c]! += v;
        max[c] = Math.max(max[c]!, relative ? v - rowMax : v);
      }
    });
  }
  return { max, decodedBin: sum.indexOf(Math.max(...sum)) };
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'likelihood-view-'));
  await mkdir(join(dir, 'likelihood'));
  await writeFile(join(dir, 'likelihood', 'reference.npy'), encodeNpyFloat32([N_TIME, N_BINS], raw));
  await writeFile(join(dir, 'likelihood', 'local.npy'), encodeNpyFloat32([N_TIME, 1], new Float64Array(N_TIME)));
  const axes = {
    time: Array.from({ length: N_TIME }, (_, r) => timeOf(r)),
    binCenters: Array.from({ length: N_BINS }, (_, c) => binCenter(c)),
    truePosition: Array.from({ length: N_TIME }, (_, r) => trueAt(r)),
  };
  await writeFile(join(dir, 'likelihood', 'axes.json'), JSON.stringify(axes));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const view = (request: unknown, strategy = 'reference', chunkBytes?: number) =>
  likelihoodView(dir, 'run', strategy, likelihoodRequest(request), chunkBytes ? { chunkBytes } : {});

describe('likelihoodView over a long decode', () => {
  it('the whole decode: each displayed row is the maximum of its block of rows', async () => {
    const v = await view({ maxRows: 400 });
    expect([v.nTime, v.nBins, v.startRow, v.endRow]).toEqual([N_TIME, N_BINS, 0, N_TIME]);
    expect([v.rows, v.cols, v.rowsPerRow, v.relative]).toEqual([400, N_BINS, 50, false]);
    expect(v.values).toHaveLength(400 * N_BINS);
    for (const block of [0, 1, 7, 200, 399]) {
      const { max, decodedBin } = expectedBlock(block * 50, block * 50 + 50);
      expect(v.values.slice(block * N_BINS, (block + 1) * N_BINS)).toEqual(max);
      expect(v.decodedPosition[block]).toBe(binCenter(decodedBin));
      expect(v.time[block]).toBeCloseTo(timeOf(block * 50), 9);
    }
    // the one-row event survives a 50-fold reduction at full strength
    const eventBlock = Math.floor(EVENT_ROW / 50);
    expect(v.values[eventBlock * N_BINS + EVENT_BIN]).toBe(5);
    // …but the decoded position, from the block's summed likelihood, stays with the walking peak
    expect(v.decodedPosition[eventBlock]).toBe(binCenter(peakBin(EVENT_ROW)));
    // block 0 holds row 0 (position unknown: null) and rows 1..49
    const known = Array.from({ length: 49 }, (_, i) => trueAt(i + 1)!);
    expect(v.truePosition![0]).toBeCloseTo(known.reduce((a, b) => a + b, 0) / known.length, 9);
    expect(v.strategies).toEqual(['reference']);
    expect(v.windows).toBeUndefined();
  });

  it('a window reads only its rows, at full resolution when it fits', async () => {
    const v = await view({ startRow: 12_345, endRow: 12_445, maxRows: 1000 });
    expect([v.startRow, v.endRow, v.rows, v.rowsPerRow]).toEqual([12_345, 12_445, 100, 1]);
    expect(v.values).toEqual(Array.from(raw.subarray(12_345 * N_BINS, 12_445 * N_BINS)));
    expect(v.decodedPosition[0]).toBe(binCenter(peakBin(12_345)));
    expect(v.time[99]).toBeCloseTo(timeOf(12_444), 9);
    expect(v.truePosition![1]).toBe(trueAt(12_346));
  });

  it('uneven blocks, columns in groups, and rows relative to their maximum', async () => {
    // 1000 rows into 300 displayed rows: blocks of 3 and 4 rows, boundaries at ⌊i·1000/300⌋
    const v = await view({ startRow: 10, endRow: 1010, maxRows: 300, maxCols: 10, relative: true });
    expect([v.rows, v.cols, v.relative]).toEqual([300, 10, true]);
    expect(v.rowsPerRow).toBeCloseTo(1000 / 300, 12);
    // displayed row 3 holds rows 20..22: the empty row 20 is left out, NaN at (21, 5) too
    const { max, decodedBin } = expectedBlock(20, 23, true);
    const grouped = Array.from({ length: 10 }, (_, g) => Math.max(...max.slice(g * 5, g * 5 + 5)));
    expect(v.values.slice(3 * 10, 4 * 10)).toEqual(grouped);
    expect(Math.max(...v.values)).toBe(0);
    expect(v.decodedPosition[3]).toBe(binCenter(decodedBin));
    expect(v.binCenters[0]).toBe((1 + 3 + 5 + 7 + 9) / 5);
    expect(v.time[3]).toBeCloseTo(timeOf(20), 9);
  });

  it('chunk size changes how the file is read, not what comes out', async () => {
    const request = { startRow: 5, endRow: 4005, maxRows: 333, maxCols: 7 };
    // 1000 bytes: 5 rows a read, so reads and blocks of 12–13 rows cross each other everywhere
    expect(await view(request, 'reference', 1000)).toEqual(await view(request));
  });

  it('holds one chunk of rows at a time, never the whole file', async () => {
    const file = join(dir, 'likelihood', 'reference.npy');
    const handle = await open(file, 'r');
    try {
      const layout = await likelihoodLayout(handle, file);
      expect([layout.nTime, layout.nBins, layout.itemBytes]).toEqual([N_TIME, N_BINS, 4]);
      const reads: [number, number, number][] = [];
      await forEachRowChunk(handle, layout, 100, 1100, (first, count, values) => reads.push([first, count, values.length]), 4096);
      // 4096 bytes hold 20 rows of 50 float32
      expect(reads.every(([, count, n]) => count <= 20 && n === count * N_BINS)).toBe(true);
      expect(reads[0]![0]).toBe(100);
      expect(reads.reduce((a, [, count]) => a + count, 0)).toBe(1000);
    } finally {
      await handle.close();
    }
  });

  it('knows the decode windows from decode.json when it describes this file', async () => {
    const sub = await mkdtemp(join(dir, 'decode-'));
    await mkdir(join(sub, 'likelihood'));
    // 4001 rows in windows of 2000: the lone last row joins the second window
    await writeFile(join(sub, 'likelihood', 'reference.npy'), encodeNpyFloat32([4001, N_BINS], raw.subarray(0, 4001 * N_BINS)));
    const summary = { likelihoodFile: 'likelihood/reference.npy', shape: [4001, N_BINS], rowsPerChunk: 2000, windows: 2 };
    await writeFile(join(sub, 'decode.json'), JSON.stringify(summary));
    const v = await likelihoodView(sub, 'run', 'reference', likelihoodRequest({}));
    expect(v.windows).toEqual({ rowsPerWindow: 2000, count: 2 });
    // no axes.json: rows and bins are counted instead (displayed row 1 starts at row ⌊4001 / 1000⌋)
    expect([v.rows, v.time[1], v.binCenters[1]]).toEqual([1000, 4, 1]);
    expect(v.truePosition).toBeUndefined();
    await writeFile(join(sub, 'decode.json'), JSON.stringify({ ...summary, windows: 3 }));
    expect((await likelihoodView(sub, 'run', 'reference', likelihoodRequest({}))).windows).toBeUndefined();
  });

  it('reads float64 and big-endian files too', async () => {
    const rows = raw.subarray(100 * N_BINS, 130 * N_BINS);
    await writeFile(join(dir, 'likelihood', 'wide.npy'), encodeNpyFloat64([30, N_BINS], Float64Array.from(rows)));
    const head = npyHeader('>f4', [30, N_BINS]);
    const body = new Uint8Array(rows.length * 4);
    rows.forEach((x, i) => new DataView(body.buffer).setFloat32(i * 4, x, false));
    await writeFile(join(dir, 'likelihood', 'swapped.npy'), Buffer.concat([head, body]));
    const expected = Array.from(rows);
    expect((await view({}, 'wide')).values).toEqual(expected);
    expect((await view({}, 'swapped')).values).toEqual(expected);
  });
});

describe('likelihoodView refuses', () => {
  it('rows past the end of the decode, naming the key', async () => {
    await expect(view({ startRow: N_TIME })).rejects.toMatchObject({ code: 'BAD_ARGUMENT', location: { key: 'request.startRow' } });
    await expect(view({ endRow: N_TIME + 1 })).rejects.toThrow(/request\.endRow: the decode has 20000 rows/);
  });

  it('a likelihood that was not saved, or not yet written, saying what to do', async () => {
    await expect(view({}, 'chunked')).rejects.toMatchObject({ code: 'NOT_FOUND', message: expect.stringMatching(/--save-likelihood/) });
    // a decode still streaming its rows (or stopped part way) has only the .partial file
    await writeFile(join(dir, 'likelihood', 'streaming.npy.partial'), npyHeader('<f4', [N_TIME, N_BINS]));
    await expect(view({}, 'streaming')).rejects.toMatchObject({ code: 'NOT_FOUND', message: expect.stringMatching(/not finished writing.*wait for the decode/) });
  });

  it('a file cut short, or not a 2-D float array', async () => {
    const whole = encodeNpyFloat32([100, N_BINS], raw.subarray(0, 100 * N_BINS));
    await writeFile(join(dir, 'likelihood', 'cut.npy'), whole.subarray(0, whole.length - 10));
    await expect(view({}, 'cut')).rejects.toMatchObject({ code: 'IO', message: expect.stringMatching(/truncated/) });
    await writeFile(join(dir, 'likelihood', 'flat.npy'), encodeNpyFloat32([100], new Float32Array(100)));
    await expect(view({}, 'flat')).rejects.toThrow(/not a 2-D float32\/float64 array/);
    await writeFile(join(dir, 'likelihood', 'text.npy'), 'not numpy at all');
    await expect(view({}, 'text')).rejects.toThrow(/not a NumPy \.npy array/);
  });
});
