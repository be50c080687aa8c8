/**
 * The NWB mapping part of the ProfilerApi contract (scanData, saveRecipe, exportDataAsNpz, the
 * dataset scale of an inspection), registered inside the suite that runs over every transport.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProfilerApi } from '../../src/shared/api';
import { AppError } from '../../src/shared/errors';
import { loadNpz } from '../../src/main/data';
import { writeNwb } from '../../src/main/data/nwb/testing';

const FIXTURE = fileURLToPath(new URL('../fixtures/nld_clusterless_decoder_inputs.npz', import.meta.url));

async function codeOf(p: Promise<unknown>): Promise<string> {
  const e = await p.then(() => undefined, (x: unknown) => x);
  expect(e, 'expected the call to fail').toBeInstanceOf(AppError);
  return (e as AppError).code;
}

export function nwbMappingContract(api: () => ProfilerApi): void {
  describe('NWB mapping', () => {
    let dir: string;
    let nwb: string;
    let recipePath: string;

    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'kde-contract-nwb-'));
      nwb = join(dir, 'session.nwb');
      await writeNwb(await loadNpz(FIXTURE), nwb, { layout: 'featureExtraction' });
    });
    afterAll(() => rm(dir, { recursive: true, force: true }));

    it('scanData lists the candidates and the automatic recipe', async () => {
      const view = await api().scanData([nwb]);
      expect(view.recipeOrigin).toBe('auto');
      expect(view.scans[0]!.featureExtractions.map((c) => c.path)).toEqual([0, 1, 2, 3].map((e) => `/processing/ecephys/features_${e}`));
      expect(view.recipe!.position.path).toBe('/processing/behavior/position/series');
    });

    it('saveRecipe keeps the mapping next to the file; the recipe inspects with the dataset scale and exports as npz', async () => {
      const view = await api().scanData([nwb]);
      const recipe = { ...view.recipe!, electrodes: view.recipe!.electrodes.slice(0, 2) };
      ({ recipePath } = await api().saveRecipe(recipe, nwb));
      expect(recipePath).toBe(`${nwb}.recipe.json`);
      expect((await api().scanData([nwb])).recipeOrigin).toBe('saved');
      const inspection = await api().inspectData({ kind: 'file', path: recipePath });
      expect(inspection.summary!.nElectrodes).toBe(2);
      expect(inspection.scale).toMatch(/encoding spikes on 2 electrodes .* preset/);
      const out = await api().exportDataAsNpz({ kind: 'file', path: recipePath }, null);
      expect(out).toMatchObject({ outPath: join(dir, 'session.clusterless.npz'), nElectrodes: 2 });
      expect(existsSync(out.outPath)).toBe(true);
    });

    it('bad arguments fail with BAD_ARGUMENT, a missing file with NOT_FOUND', async () => {
      expect(await codeOf(api().scanData([]))).toBe('BAD_ARGUMENT');
      expect(await codeOf(api().scanData('x.nwb' as never))).toBe('BAD_ARGUMENT');
      expect(await codeOf(api().scanData([join(dir, 'data.npz')]))).toBe('BAD_ARGUMENT');
      expect(await codeOf(api().scanData([join(dir, 'missing.nwb')]))).toBe('NOT_FOUND');
      expect(await codeOf(api().saveRecipe({ format: 'nope' } as never, nwb))).toBe('BAD_ARGUMENT');
      expect(await codeOf(api().saveRecipe([] as never, nwb))).toBe('BAD_ARGUMENT');
      expect(await codeOf(api().exportDataAsNpz({ kind: 'file', path: nwb }, 42 as never))).toBe('BAD_ARGUMENT');
      expect(await codeOf(api().exportDataAsNpz({ kind: 'file', path: nwb }, join(dir, 'out.txt')))).toBe('BAD_ARGUMENT');
    });
  });
}
