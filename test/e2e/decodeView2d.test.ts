/**
 * The Decode view on a 2-D decode, in web mode and Debian's Chromium: a small open field
 * (clusterless-npz/1 written here: a 60 × 60 cm arena, 4 electrodes of 4 marks, place-tuned
 * units) decoded with `kde-profiler decode --model detector`; the page shows the posterior as a
 * map at the cursor's row with the MAP and true position, the MAP's x(t) and y(t) tracks and the
 * state track, and pressing on the tracks, the slider and Play move the cursor and redraw the map.
 * The data file is moved away after the decode: the map and tracks are drawn from the run folder.
 * Screenshots go to test-artifacts/ for a look by eye.
 */
import { mkdtemp, readdir, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeNpyBytes, encodeNpyFloat64, encodeNpyStrings, ZipWriter } from '../../src/main/data';
import { isRunId } from '../../src/shared/runIds';
import { runCli, screenshotsAtLabSizes, startWebSession, webTestSkipReason } from './harness';
import { canvasStats } from './webModeChecks';

const reason = webTestSkipReason();
if (reason) console.warn(`test/e2e/decodeView2d.test.ts skipped: ${reason}`);

const SOON = { timeout: 20_000 };
const ROWS = 3000;
const DT_S = 0.002;

/** a deterministic uniform in [0, 1) (mulberry32), so every run decodes the same field */
function uniform(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** an animal wandering a 60 × 60 cm arena, and four electrodes of place-tuned units with marks of their own */
async function writeOpenField(path: string): Promise<void> {
  const next = uniform(11);
  const time = Float64Array.from({ length: ROWS }, (_, i) => i * DT_S);
  const position = new Float64Array(ROWS * 2);
  let [x, y, heading] = [30, 30, 0];
  for (let i = 0; i < ROWS; i++) {
    heading += (next() - 0.5) * 0.6;
    [x, y] = [x + Math.cos(heading) * 0.06, y + Math.sin(heading) * 0.06];
    if (x < 2 || x > 58) heading = Math.PI - heading;
    if (y < 2 || y > 58) heading = -heading;
    [x, y] = [Math.min(58, Math.max(2, x)), Math.min(58, Math.max(2, y))];
    position.set([x, y], i * 2);
  }
  const zip = await ZipWriter.create(path);
  const add = (name: string, bytes: Uint8Array) => zip.add(`${name}.npy`, [bytes]);
  await add('format', encodeNpyStrings(['clusterless-npz/1'], true));
  await add('position_time', encodeNpyFloat64([ROWS], time));
  await add('time', encodeNpyFloat64([ROWS], time));
  await add('position', encodeNpyFloat64([ROWS, 2], position));
  await add('params', encodeNpyBytes(new TextEncoder().encode(JSON.stringify({ place_bin_size: 4, position_std: 6, waveform_std: 24 }))));
  for (let e = 0; e < 4; e++) {
    const units = Array.from({ length: 5 }, () => ({ cx: 8 + next() * 44, cy: 8 + next() * 44, amp: [0, 1, 2, 3].map(() => 40 + next() * 160) }));
    const spikes: { t: number; marks: number[] }[] = [];
    for (let i = 0; i < ROWS; i++) {
      const [px, py] = [position[i * 2]!, position[i * 2 + 1]!];
      for (const u of units) {
        const rate = 60 * Math.exp(-((px - u.cx) ** 2 + (py - u.cy) ** 2) / (2 * 8 ** 2)) + 0.5;
        if (next() < rate * DT_S) spikes.push({ t: time[i]! + next() * DT_S, marks: u.amp.map((a) => a + (next() - 0.5) * 16) });
      }
    }
    spikes.sort((a, b) => a.t - b.t);
    await add(`spike_times_${e}`, encodeNpyFloat64([spikes.length], Float64Array.from(spikes, (s) => s.t)));
    await add(`spike_waveform_features_${e}`, encodeNpyFloat64([spikes.length, 4], Float64Array.from(spikes.flatMap((s) => s.marks))));
  }
  await zip.finish();
}

describe.skipIf(reason !== null)(`the Decode view on a 2-D detector decode${reason ? ` (skipped: ${reason})` : ''}`, () => {
  let workDir: string;
  let runId: string;
  let web: Awaited<ReturnType<typeof startWebSession>>;

  beforeAll(async () => {
    workDir = await mkdtemp(join(tmpdir(), 'kde-e2e-decode-2d-'));
    const runsDir = join(workDir, 'runs');
    const data = join(workDir, 'field.npz');
    await writeOpenField(data);
    await runCli(['decode', '--data', data, '--model', 'detector', '--backend', 'wasm', '--out', join(workDir, 'out'), '--runs-dir', runsDir]);
    runId = (await readdir(runsDir)).find((f) => isRunId(f))!;
    // the run folder alone draws the map: the data file is moved away before any page asks
    await rename(data, join(workDir, 'field-moved.npz'));
    web = await startWebSession({ runsDir });
  }, 300_000);

  afterAll(async () => {
    await web?.close();
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  const drawn = async (testid: string, colours: number): Promise<string> => {
    const s = await canvasStats(web.session.page, testid);
    return s.distinctColors > colours && s.paintedFraction > 0.05 ? 'drawn' : `${s.distinctColors} colours, ${(s.paintedFraction * 100).toFixed(0)} % painted`;
  };
  /** presses on the x track at this share of the figure's width (scrolled into view first) */
  const pressTracks = async (share: number): Promise<void> => {
    const tracks = web.session.page.getByTestId('position-tracks');
    const box = (await tracks.boundingBox())!;
    await tracks.click({ position: { x: box.width * share, y: box.height * 0.3 } });
  };
  const mapRow = async (): Promise<number> => Number(await web.session.page.getByTestId('posterior-map').getAttribute('data-row'));

  it('shows the map at the cursor, the MAP x and y tracks and the state track', async () => {
    const { page, problems } = web.session;
    await page.goto(`${web.serve.url}#/decode?run=${runId}`);
    await expect.poll(() => drawn('posterior-map', 8), SOON).toBe('drawn');
    await expect.poll(() => drawn('position-tracks', 4), SOON).toBe('drawn');
    await expect.poll(() => drawn('state-track', 4), SOON).toBe('drawn');
    const map = page.getByTestId('posterior-map');
    expect(Number(await map.getAttribute('data-nx')) * Number(await map.getAttribute('data-ny'))).toBeGreaterThan(50);
    expect(await page.getByTestId('posterior-summary').textContent()).toMatch(/detector: acausal posterior at the cursor's row, .* per bin of the \d+ × \d+ grid/);
    expect(await page.getByTestId('posterior-heatmap').count()).toBe(0);
    await web.session.screenshot('decode-view-2d');
    expect(problems).toEqual([]);
  });

  it('pressing on the tracks moves the cursor there and redraws the map; the slider steps a row', async () => {
    const { page, problems } = web.session;
    const before = await canvasStats(page, 'posterior-map');
    await pressTracks(0.7);
    await expect.poll(mapRow, SOON).toBeGreaterThan(ROWS / 2);
    await expect.poll(async () => (await canvasStats(page, 'posterior-map')).signature, SOON).not.toBe(before.signature);
    expect(await page.getByTestId('posterior-map-caption').textContent()).toMatch(new RegExp(`\\(row ${await mapRow()}\\)`));
    const row = await mapRow();
    await page.getByTestId('map-slider').focus();
    await page.keyboard.press('ArrowRight');
    await expect.poll(mapRow, SOON).toBe(row + 1);
    await web.session.screenshot('decode-view-2d-scrubbed');
    expect(problems).toEqual([]);
  });

  it('Play steps the cursor on and Pause stops it', async () => {
    const { page, problems } = web.session;
    const cursorRow = async (): Promise<number> => Number(/row (\d+)/.exec((await page.getByTestId('map-row').textContent()) ?? '')?.[1]);
    await pressTracks(0.3);
    await expect.poll(mapRow, SOON).toBeLessThan(ROWS / 2);
    const start = await mapRow();
    await page.getByTestId('map-play').click();
    expect(await page.getByTestId('map-play').getAttribute('aria-pressed')).toBe('true');
    await expect.poll(mapRow, SOON).toBeGreaterThan(start + 20);
    await page.getByTestId('map-play').click();
    await expect.poll(() => page.getByTestId('map-play').textContent(), SOON).toBe('Play');
    // paused, the cursor stays where it was and the map catches up with it
    const stopped = await cursorRow();
    await expect.poll(mapRow, SOON).toBe(stopped);
    expect(await cursorRow()).toBe(stopped);
    expect(problems).toEqual([]);
  });

  it('a period row zooms the map\'s tracks to it', async () => {
    const { page, problems } = web.session;
    // the open field has few confident non-local rows: a low threshold lists some to zoom to
    await page.getByTestId('threshold-input').fill('0.05');
    await page.getByTestId('threshold-input').dispatchEvent('change');
    await expect.poll(() => page.getByTestId('period-row').count(), SOON).toBeGreaterThan(0);
    await page.getByTestId('period-row').first().click();
    await expect.poll(() => page.getByTestId('posterior-whole').isEnabled(), SOON).toBe(true);
    await expect.poll(() => drawn('position-tracks', 4), SOON).toBe('drawn');
    await screenshotsAtLabSizes(web.session, 'decode-view-2d-zoomed');
    expect(problems).toEqual([]);
  });
});
