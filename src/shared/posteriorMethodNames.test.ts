import { describe, expect, it } from 'vitest';
import { posteriorUnderMethodNames, reportUnderMethodNames, runConfigUnderMethodNames } from './posteriorMethodNames';

/** a posterior report as runs wrote it before its method had its name */
const OLD_POSTERIOR = {
  model: 'decoder', strategy: 'structured', states: ['Continuous'], filterMs: 20, smoothMs: 30,
  strategies: [
    { strategy: 'dense', filterMs: 200, smoothMs: 300, maxAbsDiffToFirst: 0 },
    { strategy: 'structured', filterMs: 20, smoothMs: 30, maxAbsDiffToFirst: 2.5e-7 },
  ],
};
const NEW_POSTERIOR = {
  model: 'decoder', method: 'structured', states: ['Continuous'], filterMs: 20, smoothMs: 30,
  methods: [
    { method: 'dense', filterMs: 200, smoothMs: 300, maxAbsDiffToFirst: 0 },
    { method: 'structured', filterMs: 20, smoothMs: 30, maxAbsDiffToFirst: 2.5e-7 },
  ],
};

describe("reading what was written under the posterior method's old names", () => {
  it("renames a posterior's strategy and its timings' to method, and leaves one under today's names as it is", () => {
    expect(posteriorUnderMethodNames(OLD_POSTERIOR)).toEqual(NEW_POSTERIOR);
    expect(posteriorUnderMethodNames(NEW_POSTERIOR)).toEqual(NEW_POSTERIOR);
    const { strategies: _timings, ...decodeOnly } = OLD_POSTERIOR;
    expect(posteriorUnderMethodNames(decodeOnly)).toEqual({ model: 'decoder', method: 'structured', states: ['Continuous'], filterMs: 20, smoothMs: 30 });
    for (const notOne of [undefined, null, 'structured', [OLD_POSTERIOR]]) expect(posteriorUnderMethodNames(notOne)).toEqual(notOne);
  });

  it("renames a config's posterior strategies to methods, and nothing else of it (the KDE strategies keep their name)", () => {
    const config = { strategies: ['reference'], posterior: { model: 'detector', strategies: ['dense', 'structured'] } };
    expect(runConfigUnderMethodNames(config)).toEqual({ strategies: ['reference'], posterior: { model: 'detector', methods: ['dense', 'structured'] } });
    expect(runConfigUnderMethodNames({ strategies: ['reference'] })).toEqual({ strategies: ['reference'] });
  });

  it("renames a report's config and posterior, leaving its strategies' results alone", () => {
    const old = { strategies: [{ strategy: 'reference' }], config: { strategies: ['reference'], posterior: { model: 'decoder', strategies: ['dense'] } }, posterior: OLD_POSTERIOR };
    expect(reportUnderMethodNames(old)).toEqual({
      strategies: [{ strategy: 'reference' }], config: { strategies: ['reference'], posterior: { model: 'decoder', methods: ['dense'] } }, posterior: NEW_POSTERIOR,
    });
    expect(reportUnderMethodNames({ strategies: [] })).toEqual({ strategies: [] });
    expect(reportUnderMethodNames(null)).toBeNull();
  });
});
