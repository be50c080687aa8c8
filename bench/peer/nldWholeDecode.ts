/**
 * non_local_detector's whole decode on a file, as the profiler runs it for `run --engine nld:MODEL`
 * (resources/engines/nld_model_engine.py under protocol 1, the same command and environment, its
 * process tree's RSS sampled from outside), without the profiler's own strategies beside it: a
 * bench compares it with a `kde-profiler decode` it timed itself. The cold call (JAX compiling)
 * is kept apart from the warm ones. Where the engine cannot run here or refuses the data, the
 * result says so in the engine's own words.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PosteriorModel } from '../../src/shared/config';
import { invocationOf } from '../../src/main/engineProcess/external/engineCommand';
import { runChild } from '../../src/main/engineProcess/external/childRun';
import type { ExternalMessage } from '../../src/main/engineProcess/external/messages';

/** nld_model_engine.py's exit status where JAX or NLD cannot be imported */
const EXIT_UNAVAILABLE = 3;

export interface NldCall {
  fitMs: number;
  predictMs: number;
}

export type NldWholeDecode =
  | { ok: true; engine: string; device: string; backend: string; cold: NldCall; warm: NldCall[]; peakRssBytes: number; counters: Record<string, number> }
  | { ok: false; refused: boolean; reason: string; peakRssBytes: number };

export interface NldRequest {
  file: string;
  model: PosteriorModel;
  /** the folder holding the `non_local_detector` package (KDE_PROFILER_NLD_SRC) */
  src: string;
  python: string;
  repeats: number;
  warmup: number;
  timeoutMs: number;
  repoRoot: string;
}

export async function runNldWholeDecode(r: NldRequest): Promise<NldWholeDecode> {
  const outDir = mkdtempSync(join(tmpdir(), 'kde-nld-whole-'));
  const name = `nld:${r.model}`;
  const config = { enginePython: r.python, repeats: r.repeats, warmup: r.warmup, posterior: { model: r.model, methods: ['structured' as const] } };
  const { argv, env } = invocationOf({ name, config, dataPath: r.file, outDir }, { ...process.env, KDE_PROFILER_NLD_SRC: r.src });
  const calls: (NldCall & { phase: string })[] = [];
  const errors: string[] = [];
  const counters: Record<string, number> = {};
  let hello: Extract<ExternalMessage, { type: 'hello' }> | undefined;
  let peakRssBytes = 0;
  const onMessage = (m: ExternalMessage) => {
    if (m.type === 'hello') hello = m;
    else if (m.type === 'call') calls.push({ phase: m.phase, fitMs: m.fitMs, predictMs: m.predictMs });
    else if (m.type === 'log' && m.level === 'error') errors.push(m.message);
    else if (m.type === 'counter') counters[m.name] = m.value;
    if (m.type === 'call') process.stderr.write(`  ${name}: ${m.phase} call, fit ${(m.fitMs / 1000).toFixed(1)} s + predict ${(m.predictMs / 1000).toFixed(1)} s\n`);
  };
  try {
    const end = await runChild({
      argv, env, cwd: r.repoRoot, timeoutMs: r.timeoutMs, signal: new AbortController().signal, onMessage,
      onRss: (bytes) => (peakRssBytes = Math.max(peakRssBytes, bytes)),
    });
    const cold = calls.find((c) => c.phase === 'cold');
    if (end.exitCode === 0 && cold) {
      return {
        ok: true, engine: hello?.engine ?? name, device: hello?.device ?? '?', backend: String(hello?.info.backend ?? '?'),
        cold, warm: calls.filter((c) => c.phase === 'warm'), peakRssBytes, counters,
      };
    }
    const said = errors.at(-1) ?? end.problem ?? end.stderrTail.at(-1) ?? 'no message';
    const how = end.stoppedFor === 'timeout' ? `stopped after ${r.timeoutMs / 1000} s` : end.signal ? `killed by ${end.signal}` : `exit ${end.exitCode}`;
    // exit 1 after a logged error is the engine refusing this data; exit 3, NLD or JAX missing
    const refused = end.exitCode === EXIT_UNAVAILABLE || (end.exitCode === 1 && errors.length > 0);
    return { ok: false, refused, reason: `${name} ${how}: ${said}`, peakRssBytes };
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}
