import { describe, expect, it } from 'vitest';
import { exampleReport } from '../export/exampleReport.testdata';
import { runSummary } from './runSummary';

describe('runSummary', () => {
  const text = runSummary(exampleReport());
  const line = (strategy: string): string => text.split('\n').find((l) => l.startsWith(`${strategy} `))!;

  it('shows each median with its interval, the repeats and the verdict against reference', () => {
    expect(text).toMatch(/^strategy\s+status\s+encode\s+decode\s+total \(95 % CI\)\s+repeats\s+first call\s+vs reference\s+agreement$/m);
    expect(line('compensated')).toMatch(/^compensated\s+ok\s+16\.5 ms ±3\.0 %\s+20\.4 ms ±5\.1 %\s+36\.9 ms ±4\.2 %\s+3 \(precision\)\s+3\.74 s\s+0\.47× \(95 % CI 0\.43–0\.50\): faster\s+max \|diff\| 1\.5e-5$/);
    expect(line('reference')).toMatch(/\s+is the reference\s+-$/);
  });

  it('names the runner-up with its verdict', () => {
    expect(text).toContain('recommendation: compensated, block size 100; runner-up reference: 2.12× (95 % CI 1.99–2.30): slower');
  });
});
