/**
 * The device findings: a GPU asked for and the CPU used, GPU pipelines compiled inside the timed
 * warm calls, and what the stage times of a device's warm calls are.
 */
import type { BackendChoice } from '../../shared/config';
import type { BackendInfo, Finding, StrategyResult } from '../../shared/report';
import { strategyLabel } from './results';

const GPU_REQUESTS: readonly BackendChoice[] = ['webgpu', 'tensorflow', 'auto'];

/**
 * A strategy whose warm repeats compiled GPU pipelines: a shader compiled inside the timed calls
 * (a shape that differs between calls keys a new one), so its warm median holds compilation.
 */
export function warmCompilationFindings(strategies: readonly StrategyResult[]): Finding[] {
  const out: Finding[] = [];
  for (const r of strategies) {
    if (r.status !== 'ok') continue;
    const compiled = r.stages.filter((st) => (st.gpu?.pipelines ?? 0) > 0);
    if (compiled.length === 0) continue;
    const label = strategyLabel(r);
    const total = compiled.reduce((n, st) => n + st.gpu!.pipelines, 0);
    const where = compiled.map((st) => `${st.gpu!.pipelines} in ${st.name}`).join(', ');
    out.push({
      id: `warm-compilation:${label}`,
      severity: 'warning',
      strategy: label,
      value: total,
      message:
        `${label} compiled ${total} GPU pipeline${total === 1 ? '' : 's'} during its warm repeats (${where}): shader ` +
        `compilation ran inside the timed calls, so its warm median includes it. A block or window of another ` +
        `size keys a new shader; keep them the same size from call to call, or warm up on every size first.`,
    });
  }
  return out;
}

const joined = (labels: string[]): string => (labels.length === 1 ? labels[0]! : `${labels.slice(0, -1).join(', ')} and ${labels[labels.length - 1]}`);

/**
 * Where the stage times are not the host's: the warm calls on an asynchronous device ran as a
 * decode runs, without waiting for the device at each stage, so a stage span's host time is only
 * the time its work took to be queued. Said once for the run: which clock the stages are on (the
 * GPU's own timestamps), or that the device could not time them and only whole calls are timed.
 */
export function stageClockFindings(strategies: readonly StrategyResult[]): Finding[] {
  const on = (clock: 'gpu' | 'unsplit'): string[] =>
    strategies.filter((r) => r.status === 'ok' && r.stages.some((st) => st.clock === clock)).map(strategyLabel);
  const out: Finding[] = [];
  const gpu = on('gpu');
  if (gpu.length > 0) {
    out.push({
      id: 'stage-clock:gpu',
      severity: 'info',
      message:
        `The stage times of ${joined(gpu)} are the GPU's own time of each stage's work, from timestamp queries: the warm ` +
        `calls ran as a decode runs, without waiting for the device at each stage, so a stage span's host time is only ` +
        `the time its work took to be queued (kept as hostMs). Encode, decode and total are the host's wall time of whole calls.`,
    });
  }
  const unsplit = on('unsplit');
  if (unsplit.length > 0) {
    out.push({
      id: 'stage-clock:unsplit',
      severity: 'warning',
      message:
        `The stage times of ${joined(unsplit)} are not split on this device: it cannot time its own work (no ` +
        `timestamp queries), and the warm calls did not wait for it at each stage, as a decode does not. Only whole ` +
        `calls are timed (encode, decode, total); the stage table keeps calls and device counts, and no stage time.`,
    });
  }
  return out;
}

export function deviceFinding(requested: BackendChoice, backend: BackendInfo): Finding[] {
  if (!GPU_REQUESTS.includes(requested) || (backend.isGpu && !backend.isFallback)) return [];
  const asked = requested === 'auto' ? 'auto was asked to pick the fastest device' : `--backend ${requested} was asked for`;
  // the backend's own warnings say why TensorFlow found no GPU; for webgpu they repeat the device
  const notes = backend.name === 'tensorflow' && backend.warnings.length > 0 ? ` (${backend.warnings.join('; ')})` : '';
  let advice: string;
  if (backend.name === 'tensorflow') {
    advice = 'tfjs-node-gpu needs CUDA 11.2 and cuDNN 8.1 on the library path; install them, or use --backend webgpu';
  } else if (backend.name === 'webgpu' && backend.isFallback) {
    advice =
      'the WebGPU adapter is a software fallback: install the vendor Vulkan/Metal/D3D12 driver; ' +
      'until then wasm is usually faster';
  } else {
    advice =
      'install the GPU driver (Vulkan/Metal/D3D12 for webgpu, CUDA 11.2 + cuDNN 8.1 for tensorflow) ' +
      'and check `kde-profiler info`';
  }
  return [{
    id: 'gpu-not-used',
    severity: requested === 'auto' ? 'info' : 'warning',
    message:
      `${asked}, but this run computed on the CPU: ${backend.device} (${backend.name})${notes}. ` +
      `${advice[0]!.toUpperCase()}${advice.slice(1)}.`,
  }];
}
