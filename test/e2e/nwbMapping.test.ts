/**
 * The NWB mapping step in web mode, in Debian's Chromium: an NWB file with two position series
 * opens the step with the ambiguity named; the person picks the series, drops an electrode and
 * applies; the recipe lands next to the file, the summary shows the mapped data and how it compares
 * with the presets, and "Export as clusterless-npz" writes the npz next to the data file.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Group } from 'h5wasm/node';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadNpz } from '../../src/main/data';
import { h5Library } from '../../src/main/data/nwb/h5';
import { writeNwb } from '../../src/main/data/nwb/testing';
import { REPO_ROOT } from './electronBinary';
import { chromiumExists, startWebSession } from './harness';

const reason = chromiumExists() ? null : 'no Chromium at /usr/bin/chromium (Debian package "chromium")';
const SOON = { timeout: 15_000 };

/** the nld fixture as NWB, plus a second (3-column) LED series so the position choice is ambiguous */
async function twoLedFile(path: string): Promise<void> {
  await writeNwb(await loadNpz(join(REPO_ROOT, 'test', 'fixtures', 'nld_clusterless_decoder_inputs.npz')), path, { layout: 'ragged' });
  const lib = await h5Library();
  const f = new lib.File(path, 'a');
  const g = (f.get('/processing/behavior/position') as Group).create_group('led1');
  g.create_attribute('neurodata_type', 'SpatialSeries');
  g.create_dataset({ name: 'data', data: new Float64Array(30), shape: [10, 3], dtype: '<d' });
  g.create_dataset({ name: 'timestamps', data: Float64Array.from({ length: 10 }, (_, i) => i), dtype: '<d' });
  f.close();
}

describe.skipIf(reason !== null)(`web mode, mapping an NWB file${reason ? ` (skipped: ${reason})` : ''}`, () => {
  let web: Awaited<ReturnType<typeof startWebSession>>;
  let page: Page;
  let dir: string;
  let nwb: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'kde-e2e-nwb-'));
    nwb = join(dir, 'session.nwb');
    await twoLedFile(nwb);
    web = await startWebSession();
    page = web.session.page;
  }, 180_000);

  afterAll(async () => {
    await web?.close();
    await rm(dir, { recursive: true, force: true });
  });

  afterEach(() => {
    if (!web) return;
    expect(web.session.problems.splice(0)).toEqual([]);
  });

  it('opening the file shows the candidates and says which choice is ambiguous', async () => {
    await page.getByTestId('file-path').fill(nwb);
    await page.getByTestId('open-file').click();
    await expect.poll(() => page.getByTestId('mapping-findings').textContent(), SOON).toContain('Several position series could be used');
    expect(await page.getByTestId('mapping-origin').textContent()).toContain('needs choices');
    await expect.poll(() => page.getByTestId('validation-findings').textContent(), SOON).toContain('Several position series');
    expect(await page.getByTestId('go-setup').isEnabled()).toBe(false);
    expect(await page.getByTestId('mapping-position').textContent()).toContain('/processing/behavior/position/led1');
    expect(await page.getByTestId('mapping-source-0').locator('tbody tr').count()).toBe(4);
  });

  it('Apply saves the chosen mapping next to the file and the summary shows the mapped data and its scale', async () => {
    await page.getByTestId('mapping-position-1').check();
    await page.getByTestId('mapping-electrode-0-3').uncheck();
    await page.getByTestId('mapping-electrode-name-0-0').fill('front');
    await page.getByTestId('mapping-apply').click();
    await expect.poll(() => page.getByTestId('mapping-applied').textContent(), SOON).toContain(`${nwb}.recipe.json`);
    await expect.poll(async () => (await page.getByTestId('summary-electrodes').textContent())?.trim(), { timeout: 30_000 }).toBe('3');
    expect(await page.getByTestId('electrode-table').textContent()).toContain('front');
    expect(await page.getByTestId('dataset-scale').textContent()).toMatch(/encoding spikes on 3 electrodes .* preset/);
    expect(await page.getByTestId('validation-findings').locator('[data-severity="error"]').count()).toBe(0);
    expect(await page.getByTestId('go-setup').isEnabled()).toBe(true);
    expect(await page.getByTestId('mapping-origin').textContent()).toContain('saved recipe');
    expect(await page.getByTestId('mapping-findings').count()).toBe(0);
    const recipe = JSON.parse(await readFile(`${nwb}.recipe.json`, 'utf8')) as { position: { path: string }; electrodes: { name: string }[] };
    expect(recipe.position.path).toBe('/processing/behavior/position/series');
    expect(recipe.electrodes.map((e) => e.name)[0]).toBe('front');
    await web.session.screenshot('data-nwb-mapping');
  });

  it('Export as clusterless-npz writes next to the data file and says where', async () => {
    await page.getByTestId('mapping-export').click();
    const out = join(dir, 'session.clusterless.npz');
    await expect.poll(() => page.getByTestId('mapping-exported').textContent(), { timeout: 30_000 }).toContain(out);
    expect(await page.getByTestId('mapping-exported').textContent()).toContain('3 electrodes');
    expect(existsSync(out)).toBe(true);
  });
});
