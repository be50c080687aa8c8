/** Fixture parity (float32 engine vs the float64 reference outputs in test/fixtures). */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { BackendName, StrategyName } from '../../../shared/config';
import { loadNpz } from '../../data';
import { calibrateBackend, engineMemory, fitEncodingModel, initBackend, predictLocal, predictNonlocal } from '../index';
import type { Calibration } from '../model';
import type { PredictOptions } from '../types';
import { countNotClose } from './builders';

export const FIXTURE_DIR = fileURLToPath(new URL('../../../../test/fixtures/', import.meta.url));

export function referenceFixtures(): string[] {
  return readdirSync(FIXTURE_DIR).filter((f) => /^kde_ref_.*\.npz$/.test(f)).sort();
}

/**
 * For every reference fixture: fit outputs, each strategy's non-local likelihood and the local
 * likelihood allclose (rtol 1e-4, atol 1e-4) to the float64 values, and no tensor left behind.
 * Small encoding/position tiles make the chunked paths take several chunks and tiles. With
 * `calibratedAuto`, `auto` also runs by the cost model at the backend's measured calibration
 * (where it may pick series), at the tiles a run uses. `predictOptions` are added to every
 * predict's (stages that do not wait for the device, say), and `label` names the suite.
 */
export function describeParity(
  backend: BackendName,
  strategiesFor: (fixture: string) => StrategyName[],
  ready: () => Promise<boolean> = async () => true,
  { calibratedAuto = false, predictOptions = {}, label = '' }: { calibratedAuto?: boolean; predictOptions?: Partial<PredictOptions>; label?: string } = {},
): void {
  describe(`parity on ${backend}${label}`, () => {
    let calibration: Calibration | undefined;
    for (const fixture of referenceFixtures()) {
      it(fixture, async (ctx) => {
        if (!(await ready())) {
          ctx.skip();
          return;
        }
        const info = await initBackend(backend);
        if (calibratedAuto) calibration ??= await calibrateBackend(info);
        const ds = await loadNpz(`${FIXTURE_DIR}${fixture}`);
        const exp = ds.expected!;
        const before = engineMemory().numTensors;
        const model = await fitEncodingModel(ds);
        expect(countNotClose(model.occupancy, exp.occupancy!)).toBe(0);
        expect(countNotClose(model.meanRates, exp.meanRates!)).toBe(0);
        expect(countNotClose(model.summedGroundProcessIntensity, exp.summedGroundProcessIntensity!)).toBe(0);
        for (const strategy of strategiesFor(fixture)) {
          const r = await predictNonlocal(model, ds, strategy, { blockSize: 100, encTileSize: 48, posTileSize: 96, ...predictOptions });
          expect([strategy, countNotClose(r.logLikelihood, exp.logLikelihoodNonlocal!)]).toEqual([strategy, 0]);
        }
        if (calibration) {
          const r = await predictNonlocal(model, ds, 'auto', { blockSize: 100, calibration });
          expect([`auto (${[...new Set(r.resolved)].join(', ')})`, countNotClose(r.logLikelihood, exp.logLikelihoodNonlocal!)]).toEqual([`auto (${[...new Set(r.resolved)].join(', ')})`, 0]);
        }
        if (exp.logLikelihoodLocal) {
          const local = await predictLocal(model, ds);
          expect(countNotClose(local, exp.logLikelihoodLocal, 1e-4, 1e-4)).toBe(0);
        }
        model.dispose();
        expect(engineMemory().numTensors).toBe(before);
      });
    }
  });
}
