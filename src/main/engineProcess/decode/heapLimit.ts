/**
 * The limit a named strategy is checked against before a decode starts: what the backend can hold.
 */
import { isDispatch, type StrategyChoice } from '../../../shared/config';
import { AppError } from '../../../shared/errors';
import { formatBytes } from '../../../shared/format';
import { WASM_HEAP_BYTES, type PeakEstimate } from '../../engine/model';

/**
 * A strategy named by the user runs as it is, untiled: where its estimate passes what the backend
 * can hold, it would fail after minutes (or, past 2 GiB on wasm, compute garbage), so it is refused
 * before the work with the electrode and what to do. auto and nld-dispatch size their chunks to fit.
 */
export function refuseBeyondHeap(strategy: StrategyChoice, backend: string, estimate: PeakEstimate & { electrode?: string }): void {
  if (isDispatch(strategy) || backend !== 'wasm' || estimate.deviceBytes <= WASM_HEAP_BYTES) return;
  throw new AppError('BAD_ARGUMENT',
    `--strategy ${strategy} would hold ${formatBytes(estimate.deviceBytes)} at once for electrode ${estimate.electrode ?? '?'} (${estimate.formula}), past the ${formatBytes(WASM_HEAP_BYTES)} the wasm backend holds. ` +
    'Use --strategy auto or nld-dispatch (they stream the position kernel in chunks that fit), or a smaller --block-size.',
    { key: 'strategy', ...(estimate.electrode ? { electrode: estimate.electrode } : {}) });
}
