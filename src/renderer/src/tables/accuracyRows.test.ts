import { describe, expect, it } from 'vitest';
import type { DatasetSummary } from '../../../shared/dataset';
import type { StrategyResult } from '../../../shared/report';
import { accuracyTable } from './accuracyRows';

const dataset = (chance?: DatasetSummary['chanceAccuracy']): DatasetSummary => ({ chanceAccuracy: chance } as DatasetSummary);
const result = (strategy: string, accuracy?: StrategyResult['accuracy'], status: StrategyResult['status'] = 'ok'): StrategyResult =>
  ({ strategy, status, accuracy } as StrategyResult);
const CHANCE = { rows: 1000, medianAbsError: 50, shareWithin10: 0.1 };

describe('accuracyTable', () => {
  it('is null when no finished strategy has an accuracy', () => {
    expect(accuracyTable([result('reference'), result('x', CHANCE, 'failed')], dataset(CHANCE))).toBeNull();
  });

  it('names no unit the data do not give, and the data\'s unit where they do', () => {
    const plain = accuracyTable([result('reference', { rows: 10, medianAbsError: 4.2, shareWithin10: 0.8 })], dataset())!;
    expect(plain.units).toBe('position units');
    expect(plain.rows[0]!.medianError).toBe('4.2');
    expect(plain.rows[0]!.verdict).toBe('');
    const cm = accuracyTable([result('reference', { rows: 10, medianAbsError: 4.2, shareWithin10: 0.8, units: 'cm' })], dataset(CHANCE))!;
    expect(cm.units).toBe('cm');
    expect(cm.rows[0]!.medianError).toBe('4.2 cm');
    expect(cm.chance).toEqual({ medianError: '50 cm', shareWithin: '10.0 %' });
  });

  it('reads a decoder near the chance level as near chance, and a good one as better', () => {
    const t = accuracyTable([
      result('blind', { rows: 10, medianAbsError: 47, shareWithin10: 0.11 }),
      result('place', { rows: 10, medianAbsError: 3, shareWithin10: 0.9 }),
    ], dataset(CHANCE))!;
    expect(t.rows[0]!.nearChance).toBe(true);
    expect(t.rows[0]!.verdict).toMatch(/near chance/);
    expect(t.rows[1]!.nearChance).toBe(false);
    expect(t.rows[1]!.verdict).toBe('better than chance (9× chance\'s share within the radius)');
  });
});
