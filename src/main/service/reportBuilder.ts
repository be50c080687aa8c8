/**
 * Assembles report.json from what the engine measured, plus what only the service knows: the run's
 * identity and environment, the engine process's peak RSS per strategy (sampled from outside),
 * and the findings and recommendation judged over all of it.
 */
import { readFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import type { RunConfig } from '../../shared/config';
import type { SerializedError } from '../../shared/errors';
import { REPORT_SCHEMA_VERSION, type Report } from '../../shared/report';
import { datasetScale, deriveFindings, recommend, type AnalysisInput } from '../analysis';
import { PRESET_INFO } from '../data';
import { rooflineOfResult } from '../engine/model';
import type { EngineOutcome } from '../engineProtocol';

let cachedVersion: string | undefined;

/** The package version, read once from package.json at the project root. */
export function toolVersion(): string {
  if (cachedVersion === undefined) {
    // from source (src/main/service) the manifest is three folders up; from the bundle (out/main) two
    cachedVersion = '0.0.0';
    for (const rel of ['../../../package.json', '../../package.json']) {
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

export function buildReport(input: ReportInput): Report {
  const { outcome, config } = input;
  const calibration = outcome.calibration;
  const strategies = outcome.strategies.map((s) => {
    const w = outcome.windows.find((x) => x.strategy === s.strategy);
    const peak = w && input.peakRssBetween?.(w.startUs, w.endUs);
    const withRss = !s.memory || peak === undefined ? s : { ...s, memory: { ...s.memory, peakRssBytes: peak } };
    const roofline = calibration ? rooflineOfResult(s, outcome.dataset, config, calibration) : undefined;
    return roofline ? { ...withRss, roofline } : withRss;
  });
  const analysis: AnalysisInput = {
    strategies,
    backend: outcome.backend,
    requestedBackend: config.backend,
    dataset: outcome.dataset,
    memoryBudgetBytes: config.memoryBudgetBytes,
    blockSize: config.blockSize ?? outcome.dataset.blockSize,
    encTileSize: config.encTileSize,
    posTileSize: config.posTileSize,
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
    environment: { ...environment(), ...(calibration ? { calibration } : {}), ...(outcome.tf32 ? { tf32: outcome.tf32 } : {}) },
    notApplicable: outcome.notApplicable,
    status: input.status,
  };
  if (outcome.workers !== undefined) report.workers = outcome.workers;
  if (outcome.agreementMatrix) report.agreementMatrix = outcome.agreementMatrix;
  if (outcome.local) report.local = outcome.local;
  const rec = recommend(analysis);
  if (rec) report.recommendation = rec;
  if (input.error) report.error = input.error;
  return report;
}
