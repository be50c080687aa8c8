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
  /** highest RSS seen in [startUs, endUs] (inclusive), or undefined without samples there */
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
      for (const s of samples) {
        if (s.tsUs >= startUs && s.tsUs <= endUs && (peak === undefined || s.rssBytes > peak)) peak = s.rssBytes;
      }
      return peak;
    },
  };
}
