/**
 * The service's share of a first paint, measured in this process with the service's own code: the
 * first timeline query of a finished run reads events.ndjson and builds the index (what a cold
 * visit waits for), later queries of a window are answered from that index.
 */
import { createProfilerService } from '../../src/main/service';
import { median } from '../table';
import type { SyntheticRun } from './syntheticRun';

export interface ServiceSide {
  /** first getTimeline of the whole run: reading the events file and building the index */
  firstQueryMs: number;
  /** median getTimeline of the whole run, and of a tenth of it, once indexed */
  wholeRunQueryMs: number;
  windowQueryMs: number;
  /** boxes answered for the whole run at 1200 px */
  wholeRunSpans: number;
}

const WIDTH_PX = 1200;
const REPEATS = 5;

export async function measureServiceSide(run: SyntheticRun): Promise<ServiceSide> {
  const service = createProfilerService({ runsDir: run.runsDir });
  try {
    const whole = { startUs: 0, endUs: run.durationUs, widthPx: WIDTH_PX };
    const window = { startUs: run.durationUs * 0.45, endUs: run.durationUs * 0.55, widthPx: WIDTH_PX };
    const time = async (request: typeof whole) => {
      const started = performance.now();
      const view = await service.getTimeline(run.runId, request);
      return { ms: performance.now() - started, spans: view.spans.length };
    };
    const first = await time(whole);
    const wholeMs: number[] = [];
    const windowMs: number[] = [];
    for (let i = 0; i < REPEATS; i++) {
      wholeMs.push((await time(whole)).ms);
      windowMs.push((await time(window)).ms);
    }
    return { firstQueryMs: first.ms, wholeRunQueryMs: median(wholeMs), windowQueryMs: median(windowMs), wholeRunSpans: first.spans };
  } finally {
    await service.close();
  }
}
