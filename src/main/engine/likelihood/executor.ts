/**
 * The seam between a predict's plan and whoever computes its terms. An executor holds the fitted
 * electrodes: it answers what the plan needs to know of them (ReachSource) and computes the terms
 * of the electrodes the plan gives terms, with the strategy the plan names. Two implement it: the
 * engine on this thread (here), and the engine process's pool of workers (engineProcess/pool).
 * Either hands the blocks to a TermListener, each electrode's in order; the caller's ordered sum
 * adds them in electrode order, so the likelihood is the same bits whichever executor ran.
 */
import { ELECTRODE_SPAN } from '../../../shared/traceSpans';
import { throwIfCancelled } from '../model';
import { fusedLikelihood } from '../ops';
import type { EncodingModel } from '../fit';
import type { EngineProbe, PredictOptions } from '../types';
import { DeviceRowSums } from './deviceRowSums';
import { electrodeSpanArgs, electrodeTerms, electrodeTermsOnDevice } from './electrodeTerms';
import type { PredictTermSum } from './orderedTermSum';
import { seriesReachOf, type NonlocalPlan, type ReachSource } from './plan';

/** A plan's terms on their way: started by NonlocalExecutor.start, delivered by `into`. */
export interface RunningTerms {
  /** Hands every planned electrode's blocks to `terms`, ending each with onElectrodeDone; resolves when the last is handed over. */
  into(terms: PredictTermSum): Promise<void>;
}

export interface NonlocalExecutor extends ReachSource {
  /**
   * Starts computing the plan's terms. A pool's workers begin at once, so the caller builds its
   * sum while they compute and hands it to `into` before it awaits anything: no block can arrive
   * before then, since the workers' answers come on this thread's event loop.
   */
  start(plan: NonlocalPlan, options: PredictOptions, probe: EngineProbe): RunningTerms;
}

/**
 * The engine on this thread: electrode after electrode, each in its `electrode` span. Where stages
 * do not wait for the device and it keeps the predict's rows, the terms are summed there and read
 * back once, at the end, in a `scatter` span.
 */
export function inThreadExecutor(model: EncodingModel): NonlocalExecutor {
  return {
    model: {
      nBins: model.nBins,
      nEnc: Int32Array.from(model.electrodes, (fitted) => fitted.nEnc),
      summedGroundProcessIntensity: model.summedGroundProcessIntensity,
    },
    seriesReach: async (asks) => asks.map((ask) => seriesReachOf(model, ask)),
    fusedLikelihood: (nEnc, nBins, nFeatures) => fusedLikelihood.runsFused(nEnc, nBins, nFeatures),
    start: (plan, options, probe) => ({
      async into(terms) {
        // the device keeps the rows only where nothing waits on each stage: a synced stage reads back anyway
        const onDevice = options.stageSync === false ? DeviceRowSums.open(plan.nTime, model.nBins, plan.electrodes.length) : null;
        try {
          for (const planned of plan.electrodes) {
            if (planned.kind !== 'terms') continue;
            throwIfCancelled(options.signal);
            const e = planned.electrode;
            await probe.span(
              ELECTRODE_SPAN,
              () => onDevice
                ? electrodeTermsOnDevice(model, planned, options, probe, onDevice, planned.rows)
                : electrodeTerms(model, planned, options, probe, (start, values) => terms.onTerms(e, start, values)),
              electrodeSpanArgs(model, planned),
            );
            terms.onElectrodeDone(e);
          }
          if (onDevice) terms.onRowSums(await probe.span('scatter', () => onDevice.read()));
        } finally {
          onDevice?.dispose();
        }
      },
    }),
  };
}
