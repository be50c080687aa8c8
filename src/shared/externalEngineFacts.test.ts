import { describe, expect, it } from 'vitest';
import { commandLineText, countersText, engineAgreementText, engineComputesText, engineMemoryText, engineSummaryText, exitText, failureText, ownWholeDecode, wholeDecodeText } from './externalEngineFacts';
import type { PosteriorReport } from './posteriorReport';
import type { StrategyResult, TimingStats } from './report';

describe('external engine facts', () => {
  it('quotes only the words a shell would split or expand', () => {
    expect(commandLineText(['python3', '/opt/kde/numpy_engine.py'])).toBe('python3 /opt/kde/numpy_engine.py');
    expect(commandLineText(['python3', 'my decoder.py', "it's", '$HOME'])).toBe("python3 'my decoder.py' 'it'\\''s' '$HOME'");
  });

  it('tells the exit by its code or the signal that ended it', () => {
    expect(exitText({ exitCode: 0 })).toBe('0');
    expect(exitText({ exitCode: 3 })).toBe('3');
    expect(exitText({ exitCode: null, signal: 'SIGKILL' })).toBe('SIGKILL');
    expect(exitText({ exitCode: null })).toBe('');
  });

  it('lists counters with their last values, rounded', () => {
    expect(countersText({ 'xla compilations': 3, 'cache hit rate': 0.123456 })).toBe('xla compilations 3, cache hit rate 0.1235');
    expect(countersText({})).toBe('');
    expect(countersText(undefined)).toBe('');
  });

  it('sums up what the engine said it is', () => {
    expect(engineSummaryText({ version: '0.5.1', device: 'cuda:0', dtype: 'float64' })).toBe('0.5.1 · cuda:0 · float64');
    expect(engineSummaryText({ version: '', device: 'cpu', dtype: 'float32' })).toBe('cpu · float32');
  });

  it('says an engine is not available here apart from a failure', () => {
    const error = { name: 'AppError' as const, code: 'RUN_FAILED' as const, message: 'cannot run on this machine: no module named jax' };
    const external = { engine: 'nld', version: '', device: '', dtype: '', info: {}, command: ['python3'], exitCode: 3, unavailable: 'no module named jax' };
    expect(failureText({ external, error })).toBe('not available on this machine: no module named jax');
    expect(failureText({ error: { ...error, message: 'out of memory' } })).toBe('out of memory');
    expect(failureText({})).toBe('no reason given');
  });

  it("gives the process tree's peak memory, and the GPUs' where nvidia-smi answered", () => {
    expect(engineMemoryText({ peakRssBytes: 412 * 1024 * 1024 })).toBe('412 MiB');
    expect(engineMemoryText({ peakRssBytes: 412 * 1024 * 1024, peakGpuBytes: 3 * 1024 ** 3 })).toMatch(/^412 MiB · GPU 3(\.0+)? GiB$/);
    expect(engineMemoryText({})).toBe('');
  });

  it("reads an engine's whole decode against the run's own: its fastest strategy plus the posterior, plus Local for the detector", () => {
    const timing = (medianMs: number) => ({ medianMs }) as TimingStats;
    const info = { engine: 'nld', version: '', device: '', dtype: 'float32', info: {}, command: ['python3'], exitCode: 0 };
    const strategies = [
      { strategy: 'reference', status: 'ok', total: timing(300) },
      { strategy: 'series', status: 'ok', total: timing(100) },
      { strategy: 'nld:decoder', status: 'ok', total: timing(450), external: { ...info, posterior: { model: 'decoder', file: 'x.npy' } } },
      { strategy: 'numpy', status: 'ok', total: timing(50), external: info },
    ] as StrategyResult[];
    const posterior = { model: 'decoder', method: 'structured', filterMs: 30, smoothMs: 20 } as PosteriorReport;
    expect(ownWholeDecode({ strategies, posterior })).toEqual({ ms: 150, strategy: 'series', posteriorMethod: 'structured' });
    expect(wholeDecodeText({ strategies, posterior })).toBe('whole decoder, warm: ours 150 ms (series likelihood + structured posterior) · nld:decoder 450 ms (3.00× ours)');
    expect(ownWholeDecode({ strategies, posterior: { ...posterior, model: 'detector', localMs: 25 } })?.ms).toBe(175);
    expect(wholeDecodeText({ strategies: strategies.filter((s) => !s.external?.posterior), posterior })).toBeUndefined();
    expect(engineComputesText(strategies[2]!.external!)).toBe('whole decoder (fit, likelihood, posterior)');
    expect(engineComputesText({})).toBe('likelihood');
  });

  it('says how an engine agreed with what it was checked against, and nothing when it was not', () => {
    const agreementWithReference = { against: "the run's decoder posterior (structured)", maxAbsDiff: 2e-6, meanAbsDiff: 1e-8, allclose: true, argmaxAgreement: 1 };
    expect(engineAgreementText({ agreementWithReference })).toBe(
      "max |Δ| 2.00e-6 vs the run's decoder posterior (structured), allclose, same argmax in 100 % of rows",
    );
    expect(engineAgreementText({ agreementWithReference: { ...agreementWithReference, allclose: false } })).toMatch(/NOT allclose/);
    expect(engineAgreementText({})).toBe('');
  });
});
