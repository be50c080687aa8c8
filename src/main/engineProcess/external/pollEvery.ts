/**
 * Samples something slow (a /proc walk, nvidia-smi) at a fixed interval while an engine runs: once
 * at once, then every interval, never two samples at a time (a slow one skips the ticks it
 * overlaps), and nothing delivered after stop, so a sample cannot land after the engine's row is made.
 */
export function pollEvery<T>(intervalMs: number, sample: () => Promise<T | null>, deliver: (value: T) => void): () => void {
  let busy = false;
  let stopped = false;
  const tick = async () => {
    if (busy || stopped) return;
    busy = true;
    const value = await sample().catch(() => null);
    busy = false;
    if (value !== null && !stopped) deliver(value);
  };
  const timer = setInterval(() => void tick(), intervalMs);
  void tick();
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
