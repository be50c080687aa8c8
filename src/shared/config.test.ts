import { describe, expect, it } from 'vitest';
import { parseRunConfig, parseStrategies, STRATEGY_CHOICES } from './config';

const base = { data: { kind: 'preset', name: 'tiny' } };

const message = (raw: unknown): string => {
  try {
    parseRunConfig(raw);
  } catch (e) {
    return (e as Error).message;
  }
  return 'no error';
};

describe('run config: the posterior request', () => {
  it('is absent unless asked, and times both posterior methods by default, dense first', () => {
    expect(parseRunConfig(base)).not.toHaveProperty('posterior');
    expect(parseRunConfig({ ...base, posterior: null })).not.toHaveProperty('posterior');
    expect(parseRunConfig({ ...base, posterior: { model: 'detector' } }).posterior).toEqual({ model: 'detector', methods: ['dense', 'structured'] });
  });

  it('runs the methods asked in one order whatever order they came in, each once', () => {
    const asked = parseRunConfig({ ...base, posterior: { model: 'decoder', methods: ['structured', 'dense', 'structured'] } });
    expect(asked.posterior).toEqual({ model: 'decoder', methods: ['dense', 'structured'] });
    expect(parseRunConfig({ ...base, posterior: { model: 'decoder', methods: ['structured'] } }).posterior!.methods).toEqual(['structured']);
  });

  it('reads a config written before the methods had their name (posterior.strategies) under the new one', () => {
    const old = parseRunConfig({ ...base, posterior: { model: 'decoder', strategies: ['structured', 'dense'] } });
    expect(old.posterior).toEqual({ model: 'decoder', methods: ['dense', 'structured'] });
    expect(message({ ...base, posterior: { model: 'decoder', strategies: ['sparse'] } })).toContain("run config 'posterior.strategies[0]': expected one of dense, structured, got \"sparse\"");
    expect(message({ ...base, posterior: { model: 'decoder', methods: ['dense'], strategies: ['dense'] } })).toContain("run config 'posterior.methods': give methods alone: strategies is its old name");
  });

  it.each([
    [{ model: 'hmm' }, "run config 'posterior.model': expected one of decoder, detector, got \"hmm\""],
    [{}, "run config 'posterior.model': expected one of decoder, detector, got undefined"],
    [{ model: 'decoder', methods: [] }, "run config 'posterior.methods': expected a non-empty list of dense, structured"],
    [{ model: 'decoder', methods: 'dense' }, "run config 'posterior.methods': expected a non-empty list"],
    [{ model: 'decoder', methods: ['sparse'] }, "run config 'posterior.methods[0]': expected one of dense, structured, got \"sparse\""],
    ['detector', "run config 'posterior': expected an object { model, methods }"],
    [['detector'], "run config 'posterior': expected an object"],
  ])('refuses %j naming the key', (posterior, expected) => {
    expect(message({ ...base, posterior })).toContain(expected);
  });

  it('refuses a posterior on a shard, which holds only some electrodes', () => {
    const raw = { ...base, posterior: { model: 'decoder' }, shard: { index: 0, count: 2 } };
    expect(message(raw)).toMatch(/^run config 'posterior': a shard holds only some electrodes/);
  });
});

describe('run config: the strategy list, one check for every front door', () => {
  const refusal = (f: () => unknown): string => {
    try {
      f();
    } catch (e) {
      return (e as Error).message;
    }
    return 'no error';
  };

  it('keeps each strategy once, in the order first given, in a config and on its own', () => {
    expect(parseStrategies(['compensated', 'auto', 'compensated', 'reference'])).toEqual(['compensated', 'auto', 'reference']);
    expect(parseRunConfig({ ...base, strategies: ['compensated', 'auto', 'compensated'] }).strategies).toEqual(['compensated', 'auto']);
  });

  it.each([
    [[], "run config 'strategies': expected a non-empty list of strategy names"],
    ['reference', "run config 'strategies': expected a non-empty list of strategy names"],
    [Array.from({ length: 17 }, () => 'reference'), "run config 'strategies': expected a non-empty list of strategy names"],
    [['reference', 'compansated'], `run config 'strategies[1]': expected one of ${STRATEGY_CHOICES.join(', ')}, got "compansated"; did you mean compensated?`],
    [['zzzz'], `run config 'strategies[0]': expected one of ${STRATEGY_CHOICES.join(', ')}, got "zzzz"`],
    [[7], `run config 'strategies[0]': expected one of ${STRATEGY_CHOICES.join(', ')}, got 7`],
  ])('refuses %j with the nearest name, the same whether it comes alone or in a config', (strategies, expected) => {
    expect(refusal(() => parseStrategies(strategies))).toBe(expected);
    expect(refusal(() => parseRunConfig({ ...base, strategies }))).toBe(expected);
  });

  it("names a front door's own words in the message and among the suggestions", () => {
    expect(refusal(() => parseStrategies(['al'], ['all']))).toBe(`run config 'strategies[0]': expected one of ${STRATEGY_CHOICES.join(', ')} or all, got "al"; did you mean all?`);
    expect(parseStrategies(['series'], ['all'])).toEqual(['series']);
  });
});
