import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { posteriorRequest } from '../../../shared/posteriorView';
import { encodeNpyFloat32 } from '../../data';
import { POSTERIOR_FILES } from '../../engineProtocol';
import { posteriorView } from './posteriorView';

// a detector decode in miniature: [Local | No-Spike | NL-Continuous × 10 | NL-Fragmented × 10]
const N_TIME = 3000;
const N_BINS = 10;
const STATES = ['Local', 'No-Spike', 'Non-Local Continuous', 'Non-Local Fragmented'];
const WIDTH = 2 + 2 * N_BINS;
/** bins 0 and 9 are off the track */
const OFF_TRACK = [0, 9];
/** a replay one row long, far from the walk */
const EVENT_ROW = 1507;
const EVENT_BIN = 7;
/** a row nobody computed */
const NAN_ROW = 40;

const peakBin = (r: number): number => 1 + (Math.floor(r / 30) % 8);
const nonLocal = (r: number): number => (r === EVENT_ROW ? 0.98 : r % 500 < 50 ? 0.9 : 0.02);

const post = new Float32Array(N_TIME * WIDTH);
const states = new Float32Array(N_TIME * 4);
const map = new Float32Array(N_TIME);
for (let r = 0; r < N_TIME; r++) {
  const nl = nonLocal(r);
  const peak = r === EVENT_ROW ? EVENT_BIN : peakBin(r);
  post[r * WIDTH] = 1 - nl - 0.01;
  post[r * WIDTH + 1] = 0.01;
  for (let b = 0; b < N_BINS; b++) {
    const p = OFF_TRACK.includes(b) ? Number.NaN : b === peak ? 0.8 * nl : (0.2 * nl) / 7;
    post[r * WIDTH + 2 + b] = 0.75 * p;
    post[r * WIDTH + 2 + N_BINS + b] = 0.25 * p;
  }
  states.set([1 - nl - 0.01, 0.01, 0.75 * nl, 0.25 * nl], r * 4);
  map[r] = 2 * peak + 1;
}
post.fill(Number.NaN, NAN_ROW * WIDTH, (NAN_ROW + 1) * WIDTH);
states.fill(Number.NaN, NAN_ROW * 4, (NAN_ROW + 1) * 4);
map[NAN_ROW] = Number.NaN;

let dir: string;
let bare: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'posterior-view-'));
  bare = await mkdtemp(join(tmpdir(), 'posterior-none-'));
  await mkdir(join(dir, 'posterior'));
  await mkdir(join(dir, 'likelihood'));
  await writeFile(join(dir, POSTERIOR_FILES.acausal), encodeNpyFloat32([N_TIME, WIDTH], post));
  await writeFile(join(dir, POSTERIOR_FILES.causal), encodeNpyFloat32([N_TIME, WIDTH], post.map((v) => v / 2)));
  await writeFile(join(dir, POSTERIOR_FILES.stateProbabilities), encodeNpyFloat32([N_TIME, 4], states));
  await writeFile(join(dir, POSTERIOR_FILES.mapPosition), encodeNpyFloat32([N_TIME], map));
  const axes = {
    time: Array.from({ length: N_TIME }, (_, r) => r * 0.002),
    binCenters: Array.from({ length: N_BINS }, (_, b) => 2 * b + 1),
    truePosition: Array.from({ length: N_TIME }, (_, r) => 2 * peakBin(r) + 1.5),
  };
  await writeFile(join(dir, 'likelihood', 'axes.json'), JSON.stringify(axes));
  const posterior = { model: 'detector', method: 'structured', states: STATES, rows: N_TIME, nStateBins: WIDTH, nInteriorStateBins: WIDTH - 4, files: POSTERIOR_FILES };
  await writeFile(join(dir, 'decode.json'), JSON.stringify({ posterior }));
  await writeFile(join(bare, 'decode.json'), JSON.stringify({ windows: 1 }));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await rm(bare, { recursive: true, force: true });
});

const view = (request: unknown, chunkBytes?: number) => posteriorView(dir, 'run', posteriorRequest(request), chunkBytes ? { chunkBytes } : {});
/** the non-local posterior of a row, summed over both states and over bins [b0, b1) */
const massOf = (r: number, b0: number, b1: number): number => {
  let s = Number.NaN;
  for (let b = b0; b < b1; b++) {
    for (const first of [2, 2 + N_BINS]) {
      const v = post[r * WIDTH + first + b]!;
      if (!Number.isNaN(v)) s = Number.isNaN(s) ? v : s + v;
    }
  }
  return s;
};

describe('posteriorView of a detector decode', () => {
  it('at full resolution: the two non-local states summed per bin, NaN off the track, the MAP and truth per row', async () => {
    const v = await view({ startRow: 100, endRow: 110, maxRows: 100 });
    expect([v.rows, v.cols, v.rowsPerRow, v.model, v.source]).toEqual([10, N_BINS, 1, 'detector', 'acausal']);
    expect(v.spatialStates).toEqual(['Non-Local Continuous', 'Non-Local Fragmented']);
    expect(v.states).toEqual(STATES);
    for (let i = 0; i < 10; i++) {
      for (let b = 0; b < N_BINS; b++) {
        const got = v.values[i * N_BINS + b]!;
        if (OFF_TRACK.includes(b)) expect(got).toBeNaN();
        else expect(got).toBeCloseTo(massOf(100 + i, b, b + 1), 6);
      }
    }
    expect(v.mapPosition).toEqual(Array.from({ length: 10 }, (_, i) => map[100 + i]));
    expect(v.truePosition).toEqual(Array.from({ length: 10 }, (_, i) => 2 * peakBin(100 + i) + 1.5));
    expect(v.time[0]).toBeCloseTo(0.2, 9);
    expect(v.stateProbabilities).toHaveLength(4);
    expect(v.nonLocalProbability![0]).toBeCloseTo(0.02, 6);
  });

  it('thinned: each cell is the maximum over its rows, so a one-row replay survives an overview', async () => {
    const v = await view({ maxRows: 30 }, 4096);
    expect([v.rows, v.rowsPerRow]).toEqual([30, 100]);
    const block = Math.floor(EVENT_ROW / 100);
    expect(v.values[block * N_BINS + EVENT_BIN]).toBeCloseTo(0.8 * 0.98, 6);
    // the block's most confident row is the event: its MAP stands for the block
    expect(v.mapPosition[block]).toBe(2 * EVENT_BIN + 1);
    expect(v.nonLocalProbability![block]).toBeCloseTo(0.98, 6);
    // a block of the walk with nothing non-local: its rows' largest mass, not their mean
    for (let b = 1; b < 9; b++) {
      let want = -Infinity;
      for (let r = 700; r < 800; r++) want = Math.max(want, massOf(r, b, b + 1));
      expect(v.values[7 * N_BINS + b]).toBeCloseTo(want, 6);
    }
  });

  it('groups of bins hold the probability mass of the group; a group wholly off the track stays NaN', async () => {
    const v = await view({ startRow: 0, endRow: 2, maxCols: 5 });
    expect(v.cols).toBe(5);
    expect(v.binCenters).toEqual([2, 6, 10, 14, 18]);
    expect(v.values[0]).toBeCloseTo(massOf(0, 0, 2), 6);
    expect(v.values[2]).toBeCloseTo(massOf(0, 4, 6), 6);
    const edges = await view({ startRow: 0, endRow: 1, maxCols: 10 });
    expect(edges.values[0]).toBeNaN();
  });

  it('a NaN row adds nothing: alone it is NaN everywhere, its MAP NaN', async () => {
    const v = await view({ startRow: NAN_ROW, endRow: NAN_ROW + 1 });
    expect(v.values.every((x) => Number.isNaN(x))).toBe(true);
    expect(v.mapPosition[0]).toBeNaN();
    expect(v.nonLocalProbability![0]).toBeNaN();
    const around = await view({ startRow: NAN_ROW - 1, endRow: NAN_ROW + 2, maxRows: 1 });
    expect(around.values[peakBin(NAN_ROW - 1)]).toBeCloseTo(massOf(NAN_ROW - 1, peakBin(NAN_ROW - 1), peakBin(NAN_ROW - 1) + 1), 6);
  });

  it('the causal posterior is its own file', async () => {
    const a = await view({ startRow: 3, endRow: 4 });
    const c = await view({ source: 'causal', startRow: 3, endRow: 4 });
    expect(c.source).toBe('causal');
    expect(c.values[peakBin(3)]).toBeCloseTo(a.values[peakBin(3)]! / 2, 6);
  });

  it('refuses rows past the decode, naming the key', async () => {
    await expect(view({ startRow: N_TIME })).rejects.toMatchObject({ code: 'BAD_ARGUMENT', location: { key: 'request.startRow' } });
    await expect(view({ endRow: N_TIME + 1 })).rejects.toMatchObject({ code: 'BAD_ARGUMENT', location: { key: 'request.endRow' } });
  });

  it("a profiling run's posterior is found in its report.json when there is no decode.json", async () => {
    const profiled = await mkdtemp(join(tmpdir(), 'posterior-run-'));
    try {
      await mkdir(join(profiled, 'posterior'));
      await mkdir(join(profiled, 'likelihood'));
      for (const f of Object.values(POSTERIOR_FILES)) await cp(join(dir, f), join(profiled, f));
      await cp(join(dir, 'likelihood', 'axes.json'), join(profiled, 'likelihood', 'axes.json'));
      const posterior = { model: 'detector', method: 'structured', states: STATES, rows: N_TIME, nStateBins: WIDTH, nInteriorStateBins: WIDTH - 4, files: POSTERIOR_FILES };
      await writeFile(join(profiled, 'report.json'), JSON.stringify({ schemaVersion: 1, posterior }));
      const v = await posteriorView(profiled, 'run', posteriorRequest({ startRow: 100, endRow: 110, maxRows: 100 }));
      expect([v.rows, v.model, v.source]).toEqual([10, 'detector', 'acausal']);
      expect(v.mapPosition).toEqual(Array.from({ length: 10 }, (_, i) => map[100 + i]));
    } finally {
      await rm(profiled, { recursive: true, force: true });
    }
  });

  it('a run without a posterior says how to get one', async () => {
    await expect(posteriorView(bare, 'run-x', posteriorRequest({}))).rejects.toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining('--model decoder or --model detector') });
  });

  it('damaged files are IO errors naming the file, never a wrong picture', async () => {
    const damaged = await mkdtemp(join(tmpdir(), 'posterior-damaged-'));
    try {
      await mkdir(join(damaged, 'posterior'));
      const posterior = { model: 'detector', states: STATES, nStateBins: WIDTH, files: POSTERIOR_FILES };
      await writeFile(join(damaged, 'decode.json'), JSON.stringify({ posterior }));
      // cut short: the header promises more rows than the file holds
      const whole = encodeNpyFloat32([N_TIME, WIDTH], post);
      await writeFile(join(damaged, POSTERIOR_FILES.acausal), whole.subarray(0, whole.length - 100));
      await expect(posteriorView(damaged, 'run', posteriorRequest({}))).rejects.toMatchObject({ code: 'IO', message: expect.stringContaining('truncated') });
      // a width that does not fit the states
      await writeFile(join(damaged, POSTERIOR_FILES.acausal), encodeNpyFloat32([2, 5], new Float32Array(10)));
      await expect(posteriorView(damaged, 'run', posteriorRequest({}))).rejects.toMatchObject({ code: 'IO', message: expect.stringContaining('do not fit') });
      // no MAP file beside a good posterior
      await writeFile(join(damaged, POSTERIOR_FILES.acausal), encodeNpyFloat32([N_TIME, WIDTH], post));
      await expect(posteriorView(damaged, 'run', posteriorRequest({}))).rejects.toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining('map_position') });
      await writeFile(join(damaged, 'decode.json'), '{ not json');
      await expect(posteriorView(damaged, 'run', posteriorRequest({}))).rejects.toMatchObject({ code: 'IO' });
    } finally {
      await rm(damaged, { recursive: true, force: true });
    }
  });
});
