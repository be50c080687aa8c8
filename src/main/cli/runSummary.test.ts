import { describe, expect, it } from 'vitest';
import { exampleReport } from '../export/exampleReport.testdata';
import { runSummary } from './runSummary';

describe('runSummary', () => {
  const text = runSummary(exampleReport());
  const line = (strategy: string): string => text.split('\n').find((l) => l.startsWith(`${strategy} `))!;

  it('shows each median with its interval, the repeats and the verdict against reference', () => {
    expect(text).toMatch(/^strategy\s+status\s+encode\s+decode\s+total \(95 % CI\)\s+repeats\s+first call\s+vs reference\s+agreement\s+decoding error$/m);
    expect(line('compensated')).toMatch(/^compensated\s+ok\s+16\.5 ms ±3\.0 %\s+20\.4 ms ±5\.1 %\s+36\.9 ms ±4\.2 %\s+3 \(precision\)\s+3\.74 s\s+0\.47× \(95 % CI 0\.43–0\.50\): faster\s+max \|diff\| 1\.5e-5\s+-$/);
    expect(line('reference')).toMatch(/\s+is the reference\s+-\s+-$/);
  });

  it('shows how well each strategy decodes and the local likelihood against a non-local decode', () => {
    const report = exampleReport();
    report.strategies[0]!.accuracy = { rows: 201, medianAbsError: 5.01, shareWithin10: 0.751, units: 'cm' };
    report.local!.ratioToNonlocal = { against: 'reference', ratio: 3.25 };
    const withAccuracy = runSummary(report).split('\n');
    expect(withAccuracy.find((l) => l.startsWith('reference '))).toMatch(/5\.0 cm, 75 % within 10$/);
    expect(withAccuracy.find((l) => l.startsWith('local '))).toMatch(/^local\s+ok\s+-\s+3\.2 ms ±4\.7 %.*decode 3\.25× reference's non-local decode/);
  });

  it('never prints a bare decoding error: the unit, or "position units" where the data name none, and the chance level beside it', () => {
    const report = exampleReport();
    report.strategies[0]!.accuracy = { rows: 100, medianAbsError: 40.6, shareWithin10: 0.11 };
    report.dataset.chanceAccuracy = { rows: 100, medianAbsError: 29.3, shareWithin10: 0.19 };
    const lines = runSummary(report).split('\n');
    expect(lines.find((l) => l.startsWith('reference '))).toMatch(/40\.6 position units, 11 % within 10$/);
    expect(lines).toContain('decoding error at chance (a bin guessed uniformly): 29.3, 19 % within 10');
  });

  it("with a posterior, says the decoder's own error first and names the column for the likelihood it scores", () => {
    const report = exampleReport();
    report.strategies[0]!.accuracy = { rows: 500, medianAbsError: 59.3, shareWithin10: 0.29 };
    report.posterior = {
      model: 'decoder', method: 'structured', states: ['Continuous'], nTime: 500, nStateBins: 100, filterMs: 3, smoothMs: 2,
      accuracy: { likelihood: { rows: 500, medianAbsError: 59.3, shareWithin10: 0.29 }, posterior: { rows: 500, medianAbsError: 2.11, shareWithin10: 0.981, units: 'cm' } },
    } as unknown as NonNullable<typeof report.posterior>;
    const lines = runSummary(report).split('\n');
    const decoded = lines.findIndex((l) => l.startsWith('decoding error of the decoder (posterior MAP against the true position): 2.1 cm, 98 % within 10'));
    const header = lines.findIndex((l) => l.startsWith('strategy '));
    expect(decoded).toBeGreaterThan(0);
    expect(decoded).toBeLessThan(header);
    expect(lines[header]).toMatch(/likelihood argmax error$/);
    // without a posterior the column keeps its plain name
    expect(text).toMatch(/decoding error$/m);
  });

  it('names the runner-up with its verdict', () => {
    expect(text).toContain('recommendation: compensated, block size 100; runner-up reference: 2.12× (95 % CI 1.99–2.30): slower');
  });

  it('shows each posterior method\'s filter and smoother times when the run ended with a posterior, structured against dense', () => {
    const report = exampleReport();
    expect(runSummary(report)).not.toContain('posterior (');
    report.posterior = {
      model: 'detector', method: 'structured', states: ['Local'], rows: 10, nStateBins: 4, nInteriorStateBins: 4,
      marginalLogLikelihood: -1, filterMs: 20, smoothMs: 30, denseTransitionBytes: 64,
      files: { acausal: 'a', causal: 'c', stateProbabilities: 's', mapPosition: 'm' },
      methods: [
        { method: 'dense', filterMs: 200, smoothMs: 300, maxAbsDiffToFirst: 0 },
        { method: 'structured', filterMs: 20, smoothMs: 30, maxAbsDiffToFirst: 2.5e-7 },
      ],
    };
    expect(runSummary(report)).toContain(
      'posterior (detector): dense filter 200 ms · smoother 300 ms; structured filter 20 ms · smoother 30 ms (0.10× dense, max |diff| 2.5e-7 vs dense)',
    );
  });
});
