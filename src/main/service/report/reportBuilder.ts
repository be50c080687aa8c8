/**
 * Assembles report.json from what the engine measured, plus what only the service knows: the run's
 * identity and environment, the engine process's peak RSS per strategy (sampled from outside),
 * each strategy's time against the reference with its interval, the machine's load over the
 * strategies' windows, and the findings and recommendation judged over all of it.
 */
import { readFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import type { RunConfig } from '../../../shared/config';
import type { SerializedError } from '../../../shared/errors';
import { REPORT_SCHEMA_VERSION, type MachineLoad, type Report } from '../../../shared/report';
import { combineMachineLoads, datasetScale, deriveFindings, recommend, withVsReference, type AnalysisInput } from '../../analysis';
import { PRESET_INFO } from '../../data';
import { rooflineOfResult } from '../../engine/model';
import type { EngineOutcome } from '../../engineProtocol';

let cachedVersion: string | undefined;

/** The package version, read once from package.json at the project root. */
export function toolVersion(): string {
  if (cachedVersion === undefined) {
    // from source (src/main/service/report) the manifest is four folders up; from the bundle (out/main) two
    cachedVersion = '0.0.0';
    for (const rel of ['../../../../package.json', '../../package.json']) {
      try {
        const pkg = JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8')) as { name?: string; version?: string };
        if (pkg.name === 'kde-profiler' && pkg.version) {
          cachedVersion = pkg.version;
          break;
        }
      } catch {
        // not this layout; try the next
      }
    }
  }
  return cachedVersion;
}

export function environment(): Report['environment'] {
  return { node: process.version, platform: process.platform, arch: process.arch, cpus: cpus().length, totalMemoryBytes: totalmem() };
}

export interface ReportInput {
  runId: string;
  createdAt: string;
  config: RunConfig;
  outcome: EngineOutcome;
  /** highest engine RSS within [startUs, endUs], from the service's sampler */
  peakRssBetween?: (startUs: number, endUs: number) => number | undefined;
  status: Report['status'];
  error?: SerializedError;
}

/** Where a strategy's calls lie on the run clock: its cold call and warm-ups, then each of its repeats (interleaved with other strategies' ones). */
function windowsOf(outcome: EngineOutcome, strategy: string): EngineOutcome['windows'] {
  return outcome.windows.filter((x) => x.strategy === strategy);
}

/** The highest engine RSS within any of the strategy's windows: another strategy's repeats in between are not its own. */
function peakRssOf(input: ReportInput, strategy: string): number | undefined {
  let peak: number | undefined;
  for (const w of windowsOf(input.outcome, strategy)) {
    const p = input.peakRssBetween?.(w.startUs, w.endUs);
    if (p !== undefined && (peak === undefined || p > peak)) peak = p;
  }
  return peak;
}

/** The strategies' loads over the run, each weighted by how long its strategy measured. */
function runLoad(outcome: EngineOutcome): MachineLoad | undefined {
  const parts = outcome.strategies.flatMap((s) => {
    if (!s.load) return [];
    const durationMs = windowsOf(outcome, s.strategy).reduce((sum, w) => sum + (w.endUs - w.startUs) / 1000, 0);
    return [{ load: s.load, durationMs }];
  });
  return combineMachineLoads(parts);
}

export function buildReport(input: ReportInput): Report {
  const { outcome, config } = input;
  const calibration = outcome.calibration;
  const measured = outcome.strategies.map((s) => {
    const peak = peakRssOf(input, s.strategy);
    const withRss = !s.memory || peak === undefined ? s : { ...s, memory: { ...s.memory, peakRssBytes: peak } };
    const roofline = calibration ? rooflineOfResult(s, outcome.dataset, config, calibration) : undefined;
    return roofline ? { ...withRss, roofline } : withRss;
  });
  const strategies = withVsReference(measured);
  const env: Report['environment'] = { ...environment(), ...(calibration ? { calibration } : {}), ...(outcome.tf32 ? { tf32: outcome.tf32 } : {}),
    ...(outcome.niceness !== undefined ? { engineNiceness: outcome.niceness } : {}) };
  const load = runLoad(outcome);
  if (load) env.load = load;
  const analysis: AnalysisInput = {
    strategies,
    backend: outcome.backend,
    requestedBackend: config.backend,
    dataset: outcome.dataset,
    memoryBudgetBytes: config.memoryBudgetBytes,
    blockSize: config.blockSize ?? outcome.dataset.blockSize,
    encTileSize: config.encTileSize,
    posTileSize: config.posTileSize,
    cores: env.cpus,
    ...(load ? { load } : {}),
    ...(outcome.posterior ? { posterior: outcome.posterior } : {}),
  };
  const report: Report = {
    schemaVersion: REPORT_SCHEMA_VERSION,
    tool: { name: 'kde-profiler', version: toolVersion() },
    runId: input.runId,
    createdAt: input.createdAt,
    config,
    dataset: outcome.dataset,
    datasetScale: datasetScale(outcome.dataset, PRESET_INFO).sentence,
    backend: outcome.backend,
    strategies,
    findings: deriveFindings(analysis),
    environment: env,
    notApplicable: outcome.notApplicable,
    status: input.status,
  };
  if (outcome.workers !== undefined) report.workers = outcome.workers;
  if (outcome.shard) report.shard = outcome.shard;
  if (outcome.fingerprint) report.fingerprint = outcome.fingerprint;
  if (outcome.agreementMatrix) report.agreementMatrix = outcome.agreementMatrix;
  if (outcome.local) report.local = outcome.local;
  if (outcome.posterior) report.posterior = outcome.posterior;
  if (outcome.projection) report.projection = outcome.projection;
  const rec = recommend(analysis);
  if (rec) report.recommendation = rec;
  if (input.error) report.error = input.error;
  return report;
}
