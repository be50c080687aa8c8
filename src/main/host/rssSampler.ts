/**
 * Samples another process's resident memory from outside it. The engine cannot sample itself
 * while wasm compute holds its event loop, so the service watches it at a steady rate instead.
 */

export interface RssSample {
  /** microseconds on the run clock */
  tsUs: number;
  rssBytes: number;
}

export interface RssSamplerOptions {
  pid: number;
  /** reads the process's RSS in bytes; undefined when it cannot be told (process gone, no /proc) */
  readRssBytes: (pid: number) => number | null | undefined | Promise<number | null | undefined>;
  nowUs: () => number;
  onSample: (sample: RssSample) => void;
  /** 50 ms = 20 Hz */
  intervalMs?: number;
}

export interface RssSampler {
  stop(): void;
  /**
   * Highest RSS seen in [startUs, endUs] (inclusive). A window shorter than the sampling interval,
   * or one whose ticks ran late under load, may hold no sample: then the first sample after it
   * stands in (resident memory is seldom handed back at once, so it still holds the window's
   * pages), or else the last one before it. Undefined only when there is no sample at all.
   */
  peakBetween(startUs: number, endUs: number): number | undefined;
  readonly samples: readonly RssSample[];
}

export function startRssSampler(options: RssSamplerOptions): RssSampler {
  const samples: RssSample[] = [];
  let busy = false;
  const tick = async () => {
    if (busy) return;
    busy = true;
    try {
      const rssBytes = await options.readRssBytes(options.pid);
      if (typeof rssBytes === 'number' && Number.isFinite(rssBytes) && rssBytes > 0) {
        const sample = { tsUs: options.nowUs(), rssBytes };
        samples.push(sample);
        options.onSample(sample);
      }
    } catch {
      // the process may be gone between ticks; the exit handler reports that
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => void tick(), options.intervalMs ?? 50);
  timer.unref?.();
  void tick();
  return {
    stop: () => clearInterval(timer),
    samples,
    peakBetween(startUs, endUs) {
      let peak: number | undefined;
      let before: RssSample | undefined;
      let after: RssSample | undefined;
      for (const s of samples) {
        if (s.tsUs < startUs) {
          if (!before || s.tsUs > before.tsUs) before = s;
        } else if (s.tsUs > endUs) {
          if (!after || s.tsUs < after.tsUs) after = s;
        } else if (peak === undefined || s.rssBytes > peak) {
          peak = s.rssBytes;
        }
      }
      return peak ?? after?.rssBytes ?? before?.rssBytes;
    },
  };
}
