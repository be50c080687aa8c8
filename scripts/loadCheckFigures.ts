/** The load check's figures: percentiles and their summary, and the printed and saved verdict (scripts/load-check.ts). */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

export const round = (v: number) => (Number.isFinite(v) ? Math.round(v * 10) / 10 : null);
export const summary = (xs: readonly number[]) => ({ n: xs.length, p50Ms: round(percentile(xs, 50)), p99Ms: round(percentile(xs, 99)), maxMs: round(percentile(xs, 100)) });

export function report(figures: Record<string, unknown> & { verdict: string }, resultsDir: string): void {
  const line = (name: string, s: unknown) => {
    const v = s as ReturnType<typeof summary>;
    console.log(`${name.padEnd(10)} n=${String(v.n).padStart(6)}  p50 ${String(v.p50Ms).padStart(7)} ms  p99 ${String(v.p99Ms).padStart(7)} ms  max ${String(v.maxMs).padStart(7)} ms`);
  };
  for (const k of ['static', 'staticHtml', 'staticJs', 'listRuns', 'timeline', 'openRun', 'eventLag']) line(k, figures[k]);
  console.log(`server peak RSS ${figures.serverPeakRssMB} MB, server CPU ${figures.serverCpuMsPerS} ms/s, server event-loop delay p99 ${figures.serverLoopDelayP99Ms} ms (max ${figures.serverLoopDelayMaxMs}), pages' event-loop delay p99 ${figures.clientLoopDelayP99Ms} ms`);
  console.log(`run ${figures.runStatus} in ${figures.runSeconds} s (engine nice value ${String(figures.engineNiceness)}); errors ${figures.errors}${figures.errors ? `: ${(figures.firstErrors as string[]).join(' | ')}` : ''}`);
  console.log(`verdict: ${figures.verdict}`);
  mkdirSync(resultsDir, { recursive: true });
  const out = join(resultsDir, `load-check-${String(figures.pages)}p.json`);
  writeFileSync(out, JSON.stringify(figures, null, 2) + '\n');
  console.log(`saved ${out}`);
}
