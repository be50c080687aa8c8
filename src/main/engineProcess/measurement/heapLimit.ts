/**
 * The limit a named strategy is checked against before its work starts (a decode, or a strategy of
 * a run): what the backend can hold.
 */
import { isDispatch, type StrategyChoice } from '../../../shared/config';
import { AppError } from '../../../shared/errors';
import { formatBytes } from '../../../shared/format';
import { WASM_HEAP_BYTES, type PeakEstimate } from '../../engine/model';

/**
 * How far the wasm heap's peak passes the estimate's formula for an untiled strategy: the formula
 * counts the tensors a block holds (E·P + E·B + B·P), the op graph's intermediates come on top.
 * TensorFlow.js's measured tensor peak on wasm (one electrode, the whole block) was 2.0× the
 * formula for compensated and 2.8–2.9× for reference, E = B from 1 000 to 3 000, P from 5 000 to
 * 20 000; a 1.3 GB estimate therefore fails the 2 GiB heap ("memory access out of bounds").
 */
export const WASM_PEAK_OVER_ESTIMATE = 3;

/**
 * A strategy named by the user runs as it is, untiled: where its estimate, with the op graph's
 * intermediates, passes what the backend can hold, it would fail after minutes (or, past 2 GiB on
 * wasm, compute garbage), so it is refused before the work (in a run, that strategy's row fails
 * saying so and the others run) with the electrode and what to do. auto and nld-dispatch size
 * their chunks to fit.
 */
export function refuseBeyondHeap(strategy: StrategyChoice, backend: string, estimate: PeakEstimate & { electrode?: string }): void {
  const peak = estimate.deviceBytes * WASM_PEAK_OVER_ESTIMATE;
  if (isDispatch(strategy) || backend !== 'wasm' || peak <= WASM_HEAP_BYTES) return;
  throw new AppError('BAD_ARGUMENT',
    `--strategy ${strategy} would hold about ${formatBytes(peak)} at once for electrode ${estimate.electrode ?? '?'} (${formatBytes(estimate.deviceBytes)} by ${estimate.formula}, ` +
    `with the ops' intermediates ${WASM_PEAK_OVER_ESTIMATE}×), past the ${formatBytes(WASM_HEAP_BYTES)} the wasm backend holds. ` +
    'Use --strategy auto or nld-dispatch (they stream the position kernel in chunks that fit), or a smaller --block-size.',
    { key: 'strategy', ...(estimate.electrode ? { electrode: estimate.electrode } : {}) });
}
