import { describe, expect, it } from 'vitest';
import type { BackendChoice } from '../../shared/config';
import type { Agreement, BackendInfo, Finding, NumericalHealth, StrategyResult } from '../../shared/report';
import { deriveFindings } from './findings';
import type { AnalysisInput } from './results';
import { cpuBackend, dataset, okResult, timing } from './testData';

function input(strategies: StrategyResult[], extra: Partial<AnalysisInput> = {}): AnalysisInput {
  return { strategies, backend: cpuBackend(), requestedBackend: 'wasm', dataset: dataset(), ...extra };
}

const ids = (fs: Finding[]): string[] => fs.map((f) => f.id);
const find = (fs: Finding[], id: string): Finding | undefined => fs.find((f) => f.id === id);

function health(extra: Partial<NumericalHealth> = {}): NumericalHealth {
  return { nonFiniteOccupancy: 0, nonFiniteGroundProcess: 0, nonFiniteLikelihood: 0, floorShare: 0.1, electrodes: [], ...extra };
}

function agreement(extra: Partial<Agreement>): Agreement {
  return { against: 'reference', maxAbsDiff: 0, meanAbsDiff: 0, allclose: true, argmaxAgreement: 1, ...extra };
}

describe('a clean run', () => {
  it('has no findings', () => {
    const fs = deriveFindings(input([okResult('reference', 10, { health: health() }), okResult('compensated', 9)]));
    expect(fs).toEqual([]);
  });
});

describe('cold start', () => {
  it('fires when the first call is more than 3× the warm median', () => {
    const fs = deriveFindings(input([okResult('reference', 10, { total: timing(100, [10, 10, 10]) })]));
    const f = find(fs, 'cold-start-dominates:reference');
    expect(f?.value).toBe(10);
    expect(f?.message).toContain('10×');
    expect(f?.message).toContain('took 100 ms');
  });

  it('does not fire at 2×', () => {
    const fs = deriveFindings(input([okResult('reference', 10, { total: timing(20, [10, 10, 10]) })]));
    expect(ids(fs)).toEqual([]);
  });

  it('fires for the run when backend init and first-call overhead are half its time', () => {
    const r = okResult('reference', 10, { total: timing(12, [10, 10, 10]) });
    const fs = deriveFindings(input([r], { backend: cpuBackend({ initMs: 1000 }) }));
    const f = find(fs, 'cold-start-dominates');
    // (1000 + 2) / (1000 + 12 + 30)
    expect(f?.value).toBeCloseTo(1002 / 1042, 12);
    expect(deriveFindings(input([r], { backend: cpuBackend({ initMs: 1 }) }))).toEqual([]);
  });

  it('skips a strategy without warm repeats', () => {
    expect(deriveFindings(input([okResult('reference', 10, { total: timing(100, []) })]))).toEqual([]);
  });
});

describe('strategy slower', () => {
  it('names each strategy more than 1.5× slower than the fastest, and only those', () => {
    const fs = deriveFindings(input([okResult('reference', 10), okResult('logsumexp', 20), okResult('compensated', 14)]));
    expect(ids(fs)).toEqual(['strategy-slower:logsumexp']);
    expect(fs[0]!.message).toMatch(/^logsumexp is 2\.00× slower than reference at this size/);
    expect(fs[0]!.value).toBe(2);
    expect(fs[0]!.message).toMatch(/prefer reference here\.$/);
  });

  it('does not advise the fastest strategy when it disagrees with the reference', () => {
    const bad = agreement({ allclose: false, maxAbsDiff: 3, argmaxAgreement: 0.9 });
    const fs = deriveFindings(input([okResult('reference', 10), okResult('compensated', 2, { agreementWithReference: bad })]));
    const f = find(fs, 'strategy-slower:reference');
    expect(f?.message).not.toContain('prefer');
    expect(f?.message).toContain('compensated disagrees with reference');
  });
});

describe('slower only when the interval says so', () => {
  it('calls a wide ratio whose interval holds 1 "no significant difference", not slower', () => {
    const fs = deriveFindings(input([
      okResult('reference', 10, { total: timing(10, [10, 6, 14, 9, 25]) }),
      okResult('logsumexp', 20, { total: timing(20, [20, 8, 30, 12, 26]) }),
    ]));
    expect(find(fs, 'strategy-slower:logsumexp')).toBeUndefined();
    const f = find(fs, 'strategy-not-significant:logsumexp');
    expect(f?.message).toMatch(/^logsumexp took 2\.00× the time of reference .*holds 1: no significant difference/);
  });

  it('never compares a strategy with itself, auto included', () => {
    const fs = deriveFindings(input([okResult('compensated', 10), okResult('auto', 20)]));
    expect(fs.filter((f) => f.id.startsWith('strategy-'))).toEqual([]);
  });

  it('gives no verdict from single repeats', () => {
    const fs = deriveFindings(input([okResult('reference', 10, { total: timing(10, [10]) }), okResult('logsumexp', 20, { total: timing(20, [20]) })]));
    expect(find(fs, 'strategy-not-significant:logsumexp')?.message).toContain('single repeats give no interval, so no verdict');
  });
});

describe('timing precision', () => {
  it('names a median whose interval is wider than ±5 %, and why the repeats stopped', () => {
    const total = { ...timing(120, [100, 130, 90, 120, 105, 140, 95]), stoppedBy: 'time' as const };
    const f = find(deriveFindings(input([okResult('reference', 100, { total })])), 'timing-imprecise:reference');
    expect(f?.value).toBeGreaterThan(0.05);
    expect(f?.message).toMatch(/^reference: the warm median encode \+ decode is 105 ms \(95 % CI .*\), ±\d+\.\d % over 7 repeats; the repeats stopped at the time budget/);
  });

  it('is silent for a tight interval', () => {
    const total = timing(120, [100, 101, 99, 100, 100.5]);
    expect(find(deriveFindings(input([okResult('reference', 100, { total })])), 'timing-imprecise:reference')).toBeUndefined();
  });
});

describe('machine load', () => {
  it('warns when the machine was busy, naming the load and the disturbed strategies', () => {
    const load = { loadAverageStart: [3.5, 2, 1], loadAverageEnd: [4.1, 2.5, 1.2], otherCpuShare: 0.6, busy: true };
    const fs = deriveFindings(input([okResult('reference', 10, { load })], { load, cores: 2 }));
    const f = find(fs, 'machine-busy');
    expect(f?.severity).toBe('warning');
    expect(f?.message).toBe(
      'Timings are likely disturbed: load average 4.10 on 2 cores; other processes used 60.0 % of the CPU time (while reference ' +
        'measured); repeat the run on a quiet machine, or compare only runs measured under the same load.',
    );
    expect(find(deriveFindings(input([okResult('reference', 10)], { load: { ...load, busy: false }, cores: 2 })), 'machine-busy')).toBeUndefined();
  });
});

describe('memory over budget', () => {
  const mem = (estimated: number, measured = 0): StrategyResult['memory'] => ({
    estimatedPeakBytes: estimated, measuredPeakTensorBytes: measured,
  });

  it('fires when the estimate exceeds the default 1 GiB and suggests what auto picks', () => {
    const fs = deriveFindings(input([okResult('logsumexp', 10, { memory: mem(2 * 1024 ** 3) })]));
    const f = find(fs, 'memory-over-budget:logsumexp');
    expect(f?.severity).toBe('warning');
    expect(f?.message).toContain('2.00 GiB');
    expect(f?.message).toContain('default memory budget of 1.00 GiB');
    expect(f?.message).toContain('it picks compensated');
  });

  it('does not suggest auto when auto itself is over budget', () => {
    const fs = deriveFindings(input([okResult('auto', 10, { memory: mem(2 * 1024 ** 3) })]));
    expect(find(fs, 'memory-over-budget:auto (compensated)')?.message).toContain('smaller --block-size or a larger memory budget');
  });

  it('judges against the run budget and stays quiet under it', () => {
    expect(ids(deriveFindings(input([okResult('logsumexp', 10, { memory: mem(100e6) })])))).toEqual([]);
    const fs = deriveFindings(input([okResult('logsumexp', 10, { memory: mem(100e6) })], { memoryBudgetBytes: 50e6 }));
    expect(ids(fs)).toEqual(['memory-over-budget:logsumexp']);
  });

  it('names a measured peak over budget that the formula did not predict', () => {
    const fs = deriveFindings(input([okResult('compensated', 10, { memory: mem(1e6, 80e6) })], { memoryBudgetBytes: 50e6 }));
    expect(ids(fs)).toEqual(['memory-measured-over-budget:compensated']);
  });
});

describe('tensor leak', () => {
  it('fires with the tensors left per repeat', () => {
    const leak = { tensorsBefore: 10, tensorsAfter: 16, perRepeat: [2, 2, 2], leaked: true };
    const f = find(deriveFindings(input([okResult('chunked', 10, { leak })])), 'tensor-leak:chunked');
    expect(f).toMatchObject({ severity: 'error', value: 2 });
    expect(f?.message).toContain('leaks 2 tensors per repeat');
  });

  it('does not fire when the count returns to its start', () => {
    const leak = { tensorsBefore: 10, tensorsAfter: 10, perRepeat: [0, 0, 0], leaked: false };
    expect(deriveFindings(input([okResult('chunked', 10, { leak })]))).toEqual([]);
  });
});

describe('GPU pipelines compiled in warm repeats', () => {
  const stage = (name: string, pipelines: number) => ({ name, calls: 3, totalMs: 1, selfMs: 1, gpu: { dispatches: 6, pipelines, readBytes: 0 } });

  it('fires with the count and the stages that compiled', () => {
    const r = okResult('compensated', 10, { stages: [stage('reduce', 2), stage('position-kernel', 0), stage('mark-kernel', 1)] });
    const f = find(deriveFindings(input([r], { requestedBackend: 'webgpu' })), 'warm-compilation:compensated');
    expect(f).toMatchObject({ severity: 'warning', value: 3 });
    expect(f?.message).toContain('compiled 3 GPU pipelines during its warm repeats (2 in reduce, 1 in mark-kernel)');
  });

  it('does not fire when the warm repeats compiled nothing, or the stages carry no device counts', () => {
    expect(ids(deriveFindings(input([okResult('compensated', 10, { stages: [stage('reduce', 0)] })])))).toEqual([]);
    expect(ids(deriveFindings(input([okResult('compensated', 10, { stages: [{ name: 'reduce', calls: 3, totalMs: 1, selfMs: 1 }] })])))).toEqual([]);
  });
});

describe('where the stage times come from', () => {
  const on = (clock: 'gpu' | 'unsplit') => ({ name: 'reduce', calls: 3, totalMs: clock === 'gpu' ? 2 : 0, selfMs: 0, clock, hostMs: 0.3, hostSelfMs: 0.3 });

  it("says the stages are on the GPU's clock and the call times on the host's", () => {
    const f = find(deriveFindings(input([okResult('compensated', 10, { stages: [on('gpu')] })])), 'stage-clock:gpu');
    expect(f?.severity).toBe('info');
    expect(f?.message).toContain("compensated are the GPU's own time of each stage's work");
    expect(f?.message).toContain("host's wall time of whole calls");
  });

  it('warns that the stages are not split where the device could not time them', () => {
    const f = find(deriveFindings(input([okResult('compensated', 10, { stages: [on('unsplit')] })])), 'stage-clock:unsplit');
    expect(f?.severity).toBe('warning');
    expect(f?.message).toContain('not split on this device');
  });

  it('says nothing on the host clock', () => {
    expect(ids(deriveFindings(input([okResult('compensated', 10, { stages: [{ name: 'reduce', calls: 3, totalMs: 1, selfMs: 1 }] })])))).toEqual([]);
  });
});

describe('GPU asked for, CPU used', () => {
  const run = (requested: BackendChoice, backend: BackendInfo): Finding[] =>
    deriveFindings(input([okResult('reference', 10)], { requestedBackend: requested, backend }));

  it('fires for webgpu on a software fallback adapter', () => {
    const fs = run('webgpu', cpuBackend({ name: 'webgpu', device: 'llvmpipe (Vulkan, software)', isGpu: true, isFallback: true }));
    const f = find(fs, 'gpu-not-used');
    expect(f?.severity).toBe('warning');
    expect(f?.message).toContain('llvmpipe');
    expect(f?.message).toContain('computed on the CPU');
  });

  it('fires for tensorflow without CUDA, naming what to install', () => {
    const fs = run('tensorflow', cpuBackend({ name: 'tensorflow', device: 'CPU (tfjs-node)', warnings: ['libcudart.so.11.0 not found'] }));
    expect(find(fs, 'gpu-not-used')?.message).toMatch(/CUDA 11\.2 and cuDNN 8\.1.*|libcudart/);
  });

  it('is information only when auto found no GPU', () => {
    expect(find(run('auto', cpuBackend()), 'gpu-not-used')?.severity).toBe('info');
  });

  it('does not fire on a real GPU or when CPU was asked for', () => {
    expect(run('webgpu', cpuBackend({ name: 'webgpu', device: 'NVIDIA H100 (Vulkan)', isGpu: true }))).toEqual([]);
    expect(run('wasm', cpuBackend())).toEqual([]);
  });
});

describe('numerical health', () => {
  it('reports non-finite occupancy, ground process and likelihood, naming electrodes with few spikes', () => {
    const electrodes = [
      { electrode: 't3', nEncodingSpikes: 1, nDecodingSpikes: 4, nonFinite: 500, floorShare: 0, tooFewEncodingSpikes: true },
      { electrode: 't4', nEncodingSpikes: 200, nDecodingSpikes: 100, nonFinite: 0, floorShare: 0, tooFewEncodingSpikes: false },
    ];
    const h = health({ nonFiniteOccupancy: 2, nonFiniteGroundProcess: 500, nonFiniteLikelihood: 7, electrodes });
    const fs = deriveFindings(input([okResult('reference', 10, { health: h })]));
    expect(ids(fs)).toEqual([
      'non-finite-occupancy', 'non-finite-ground-process', 'non-finite-electrodes', 'non-finite-likelihood:reference',
      'too-few-encoding-spikes',
    ]);
    expect(find(fs, 'non-finite-ground-process')?.message).toContain('t3 (1)');
    expect(find(fs, 'non-finite-electrodes')).toMatchObject({ electrode: 't3', value: 1 });
    expect(find(fs, 'non-finite-likelihood:reference')?.value).toBe(7);
  });

  it('warns when more than half the spike terms sit on the floor, and not at half', () => {
    const fs = deriveFindings(input([okResult('reference', 10, { health: health({ floorShare: 1 }) })], {
      dataset: dataset({ featureDims: [8] }),
    }));
    const f = find(fs, 'floor-dominated');
    expect(f?.message).toContain('100 % of spike terms');
    expect(f?.message).toContain('D = 8');
    expect(f?.message).toContain('≈ 4.1 nats');
    expect(f?.message).toContain('smaller waveform σ or fewer features');
    expect(deriveFindings(input([okResult('reference', 10, { health: health({ floorShare: 0.5 }) })]))).toEqual([]);
  });

  it('finds electrodes with too few encoding spikes from the dataset when no health was measured', () => {
    const d = dataset();
    d.electrodes[2] = { name: 'sparse', nFeatures: 2, nEncodingSpikes: 5, nDecodingSpikes: 3 };
    const f = find(deriveFindings(input([okResult('reference', 10)], { dataset: d })), 'too-few-encoding-spikes');
    expect(f).toMatchObject({ electrode: 'sparse', value: 1 });
    expect(f?.message).toContain('sparse (5 < 6)');
    d.electrodes[2] = { name: 'enough', nFeatures: 2, nEncodingSpikes: 6, nDecodingSpikes: 3 };
    expect(deriveFindings(input([okResult('reference', 10)], { dataset: d }))).toEqual([]);
  });
});

describe('disagreement', () => {
  it('is an error when the decoded position differs in more than 1 % of rows', () => {
    const g = agreement({ maxAbsDiff: 3.08, meanAbsDiff: 0.01, allclose: false, argmaxAgreement: 0.95 });
    const f = find(deriveFindings(input([okResult('compensated', 10, { agreementWithReference: g })])), 'strategies-disagree:compensated');
    expect(f?.severity).toBe('error');
    expect(f?.message).toContain('max |diff| 3.08');
    expect(f?.message).toContain('only 95.0 %');
    expect(f?.message).toContain('underflow');
  });

  it('is a warning when only the values differ', () => {
    const g = agreement({ maxAbsDiff: 2e-3, allclose: false, argmaxAgreement: 1 });
    const f = find(deriveFindings(input([okResult('logsumexp', 10, { agreementWithReference: g })])), 'strategies-disagree:logsumexp');
    expect(f?.severity).toBe('warning');
    expect(f?.message).toContain('2.00e-3');
  });

  it("tells an external engine in float32 to run in float64 too, naming NLD's x64 form", () => {
    const g = agreement({ against: 'auto', maxAbsDiff: 10.6, allclose: false, argmaxAgreement: 0.999 });
    const external = { engine: 'nld:clusterless_kde', version: '?', device: 'cpu', dtype: 'float32', info: {}, command: [], exitCode: 0 };
    const f = find(deriveFindings(input([okResult('nld:clusterless_kde', 10, { agreementWithReference: g, external })])), 'strategies-disagree:nld:clusterless_kde');
    expect(f?.message).toMatch(/disagrees with auto .* max \|diff\| 10\.6.*run it in float64 as well \(nld:clusterless_kde:x64\)/);
  });

  it('checks the expected output too, and is silent when allclose holds', () => {
    const bad = agreement({ against: 'expected', allclose: false, maxAbsDiff: 1, argmaxAgreement: 0.5 });
    expect(ids(deriveFindings(input([okResult('reference', 10, { agreementWithExpected: bad })])))).toEqual(['expected-mismatch:reference']);
    expect(deriveFindings(input([okResult('logsumexp', 10, { agreementWithReference: agreement({ maxAbsDiff: 1e-6 }) })]))).toEqual([]);
  });
});

describe('failed strategy', () => {
  it('names the strategy and its error, first among the findings', () => {
    const failed: StrategyResult = {
      strategy: 'streaming', resolved: [], status: 'failed', stages: [], kernels: [],
      error: { name: 'AppError', code: 'RUN_FAILED', message: 'out of memory allocating 2 GiB' },
    };
    const fs = deriveFindings(input([okResult('reference', 10), okResult('logsumexp', 40), failed]));
    expect(ids(fs)).toEqual(['strategy-failed:streaming', 'strategy-slower:logsumexp']);
    expect(fs[0]!.message).toBe(
      'streaming failed: out of memory allocating 2 GiB [RUN_FAILED]; its timings and agreement are missing from this report.',
    );
    expect(deriveFindings(input([okResult('reference', 10)]))).toEqual([]);
  });
});

describe('decoding accuracy', () => {
  it('warns when strategies decode differently, with a tolerance of two of the dataset’s bins', () => {
    const decodes = (err: number): Partial<StrategyResult> => ({ accuracy: { rows: 200, medianAbsError: err, shareWithin10: 0.7 } });
    const d = { ...dataset(), positionRange: [0, 100] as [number, number], nBins: 100 };
    const close = deriveFindings(input([okResult('reference', 10, decodes(5)), okResult('compensated', 9, decodes(6.5))], { dataset: d }));
    expect(ids(close).filter((id) => id.startsWith('accuracy-differs'))).toEqual([]);
    const apart = deriveFindings(input([okResult('reference', 10, decodes(5)), okResult('compensated', 9, decodes(9))], { dataset: d }));
    expect(find(apart, 'accuracy-differs:compensated')?.severity).toBe('warning');
  });
});
