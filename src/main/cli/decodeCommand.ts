/**
 * `kde-profiler decode`: the production path for a long recording, as a recorded run of the
 * service (it lands in the run store with its trace, like a run from the app). The engine process
 * fits once, decodes the grid in windows of rows and streams each window's likelihood into the
 * run folder; progress and an ETA come on stderr. At the end DIR/likelihood/<strategy>.npy (a
 * hard link where the file system allows, a copy otherwise) and DIR/decode.json hold what it made.
 * A failure leaves DIR/likelihood/<strategy>.npy.partial with the rows written so far. When a
 * `kde-profiler serve` runs on the same runs folder, the run's web link is printed at the end.
 * With `--shard I/N` it decodes one shard of the electrodes (a SLURM array task), for
 * `kde-profiler merge` to add up with the others.
 */
import { readFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { POSTERIOR_METHODS, POSTERIOR_MODELS, type PosteriorMethod, type PosteriorModel, type RunConfig, type StrategyChoice } from '../../shared/config';
import { deserializeError, exitCodeFor } from '../../shared/errors';
import { wholeDecodeTime } from '../../shared/posteriorReport';
import { projectionSentence } from '../../shared/projection';
import { formatBytes, formatMs } from '../../shared/format';
import {
  DECODE_SUMMARY_FILE, LIKELIHOOD_DIR, likelihoodRelPath, PARTIAL_SUFFIX, POSTERIOR_DIR, POSTERIOR_FILES, RESULT_FOLDER_NAMES, type DecodeRequest,
  type DecodeSummary,
  type PosteriorSummary,
} from '../engineProtocol';
import { commitResultFolder, holdsResult, stageFile } from '../data';
import { DEFAULT_ROWS_PER_WINDOW } from '../engine/model';
import type { ProfilerService } from '../service';
import { boolFlag, intFlag, parseFlags, stringFlag } from './args';
import { withService } from './cliService';
import { EXIT, UsageError, type CliCommand, type CliIo } from './cliTypes';
import { givenParameterFlag, POSTERIOR_PARAMETER_OPTIONS, posteriorParametersFrom, WITHOUT_POSTERIOR_PARAMETERS } from './posteriorParameterFlags';
import { checkNpzStart } from './dataFile';
import { withEveryProblemPointer } from './dataProblems';
import { resolveNwbData } from './nwbData';
import { followRun } from './runCommand';
import { checkOutputFolder, type FolderOutputs } from './outputChecks';
import { notCopiedMessage } from './outputFiles';
import { oldPosteriorFlagNote, POSTERIOR_METHOD_FLAGS, posteriorMethodFlag, WITHOUT_POSTERIOR_METHOD } from './posteriorMethodFlag';
import { exists } from './runOutputs';
import { RUN_OPTIONS, runConfigFromFlags } from './runFlags';
import { printRunLink } from './serverLink';

const DECODE_USAGE = `kde-profiler decode --data FILE.npz|FILE.nwb|preset:NAME [--recipe FILE.recipe.json] [--strategy NAME|auto|nld-dispatch]
                    [--seed N] [--features D] [--feature-scale F] (a preset's generation)
                    [--backend auto|wasm|cpu|webgpu|tensorflow] [--block-size N] [--enc-tile N]
                    [--pos-tile N] [--memory-budget-mb MB] [--rows-per-chunk N] [--workers N] [--allow-tf32]
                    [--model decoder|detector|none] [--posterior-method structured|dense] (default structured)
                    [--movement-var CM2] [--no-spike-rate HZ] [--discrete-transition JSON]
                    [--local-position-std CM]
                    [--shard I/N [--shard-by round-robin|spikes]] --out DIR [--runs-dir DIR]

--model: the state-space posterior after the likelihood (default decoder; none with --shard, whose
likelihoods are merged first): DIR/posterior/{acausal_posterior,causal_posterior,
acausal_state_probabilities,map_position}.npy.
--posterior-method: how its filter and smoother apply the transition matrix; --posterior-strategy
is its old name, still read.
--movement-var, --no-spike-rate, --discrete-transition: the model's random-walk variance (position
units², default 6), No-Spike rate (per s, default 1e-10) and state-to-state transition (JSON rows
from, columns to, in the model's state order: the detector's Local, No-Spike, Non-Local Continuous,
Non-Local Fragmented), non_local_detector's defaults where absent.
--local-position-std: the detector's Local state over every place bin, weighted by a Gaussian of
this std (position units) around the animal's bin along the grid's interior, or all in the animal's
bin for 0 (non_local_detector's local_position_std); absent, Local is one bin at the animal's
exact position.`;

const OPTIONS = {
  data: RUN_OPTIONS.data,
  recipe: RUN_OPTIONS.recipe,
  seed: RUN_OPTIONS.seed,
  features: RUN_OPTIONS.features,
  'feature-scale': RUN_OPTIONS['feature-scale'],
  backend: RUN_OPTIONS.backend,
  strategy: RUN_OPTIONS.strategy,
  'block-size': RUN_OPTIONS['block-size'],
  'enc-tile': RUN_OPTIONS['enc-tile'],
  'pos-tile': RUN_OPTIONS['pos-tile'],
  'memory-budget-mb': RUN_OPTIONS['memory-budget-mb'],
  workers: RUN_OPTIONS.workers,
  'allow-tf32': RUN_OPTIONS['allow-tf32'],
  shard: RUN_OPTIONS.shard,
  'shard-by': RUN_OPTIONS['shard-by'],
  'rows-per-chunk': { type: 'string' },
  model: { type: 'string' },
  ...POSTERIOR_METHOD_FLAGS,
  ...POSTERIOR_PARAMETER_OPTIONS,
  out: RUN_OPTIONS.out,
  'runs-dir': RUN_OPTIONS['runs-dir'],
  help: RUN_OPTIONS.help,
} as const;

/** The posterior the flags ask for; none for a shard unless one is named (which the engine refuses). */
function posteriorOf(flags: ReturnType<typeof parseFlags>, sharded: boolean): DecodeRequest['posterior'] {
  const model = stringFlag(flags, 'model') ?? (sharded ? 'none' : 'decoder');
  const given = posteriorMethodFlag(flags);
  const method = given?.value ?? 'structured';
  if (model !== 'none' && !(POSTERIOR_MODELS as readonly string[]).includes(model)) {
    throw new UsageError(`--model ${model}: expected ${POSTERIOR_MODELS.join(', ')} or none`);
  }
  if (!(POSTERIOR_METHODS as readonly string[]).includes(method)) throw new UsageError(`${given?.flag ?? '--posterior-method'} ${method}: expected ${POSTERIOR_METHODS.join(' or ')}`);
  if (model === 'none') {
    const without = given?.flag ?? givenParameterFlag(flags);
    if (without) throw new UsageError(`${without} needs a posterior: drop it or give --model decoder|detector`);
    return undefined;
  }
  const parameters = posteriorParametersFrom(flags, model as PosteriorModel);
  return { model: model as PosteriorModel, method: method as PosteriorMethod, ...(Object.keys(parameters).length > 0 ? { parameters } : {}) };
}

/**
 * The finished decode's likelihood (a hard link where the file system allows: no second copy of a
 * long likelihood), posterior and decode.json, from the run folder into DIR as one commit: an
 * earlier result there stays whole until this one is, and none of its files stays beside it.
 */
async function copyDecodeOutputs(runId: string, runDir: string, outDir: string, strategy: StrategyChoice): Promise<DecodeSummary> {
  const rel = likelihoodRelPath(strategy);
  const summary = JSON.parse(await readFile(join(runDir, DECODE_SUMMARY_FILE), 'utf8')) as DecodeSummary;
  const posterior = summary.posterior ? Object.values(POSTERIOR_FILES) : [];
  await commitResultFolder(outDir, { all: RESULT_FOLDER_NAMES }, { kind: 'decode', runId, status: 'completed' }, async (staging) => {
    for (const file of [rel, ...posterior, DECODE_SUMMARY_FILE]) await stageFile(runDir, staging, file);
    return [LIKELIHOOD_DIR, ...(posterior.length > 0 ? [POSTERIOR_DIR] : []), DECODE_SUMMARY_FILE];
  });
  return summary;
}

/** What a decode may write into DIR (the partial file too, where it stops early), checked before it starts. */
function decodeOutputsOf(strategy: StrategyChoice, posterior: boolean): FolderOutputs {
  const rel = likelihoodRelPath(strategy);
  return {
    files: [rel, `${rel}${PARTIAL_SUFFIX}`, DECODE_SUMMARY_FILE, ...(posterior ? Object.values(POSTERIOR_FILES) : [])],
    folders: [LIKELIHOOD_DIR, ...(posterior ? [POSTERIOR_DIR] : [])],
  };
}

/**
 * The rows a stopped decode wrote, into DIR where the whole file would have gone, when DIR holds no
 * earlier result (a stopped decode replaces nothing); returns where they are, undefined when none.
 */
async function keepPartial(run: { runId: string; status: string }, runDir: string, outDir: string, strategy: StrategyChoice, io: CliIo): Promise<string | undefined> {
  const rel = `${likelihoodRelPath(strategy)}${PARTIAL_SUFFIX}`;
  if (!(await exists(join(runDir, rel)))) return undefined;
  if (await holdsResult(outDir, { all: RESULT_FOLDER_NAMES })) {
    io.stderr.write(`--out ${outDir} keeps its earlier result: a decode that did not complete replaces nothing there\n`);
    return join(runDir, rel);
  }
  await commitResultFolder(outDir, { all: RESULT_FOLDER_NAMES }, { kind: 'decode', ...run }, async (staging) => {
    await stageFile(runDir, staging, rel);
    return [LIKELIHOOD_DIR];
  });
  return join(outDir, rel);
}

function accuracyText(p: PosteriorSummary): string {
  const { likelihood, posterior } = p.accuracy ?? {};
  if (!likelihood || !posterior) return '';
  const text = (a: NonNullable<typeof likelihood>): string => `median error ${a.medianAbsError.toPrecision(3)}, ${(100 * a.shareWithin10).toFixed(1)} % of rows within 10`;
  return `accuracy against the true position: posterior MAP ${text(posterior)}; likelihood argmax ${text(likelihood)}\n`;
}

/** What the posterior adds to the likelihood's time: the whole decode against the likelihood alone. */
function wholeDecodeText(p: PosteriorSummary, decodeMs: number): string {
  if (!(decodeMs > 0)) return '';
  const t = wholeDecodeTime(decodeMs, p);
  return `whole decode: likelihood ${formatMs(t.likelihoodMs)}${p.localMs !== undefined ? ` + local ${formatMs(t.localMs)}` : ''} + filter and smoother ` +
    `${formatMs(t.posteriorMs)} = ${formatMs(t.wholeMs)}, ${t.ratio.toFixed(2)}× the likelihood alone\n`;
}

/** the posterior's files by name, without their folder and ending */
const POSTERIOR_FILE_NAMES = Object.values(POSTERIOR_FILES).map((f) => basename(f, '.npy')).join(', ');

function posteriorText(p: PosteriorSummary, outDir: string, decodeMs: number): string {
  return (
    `${p.model} posterior (${p.method}, ${p.nInteriorStateBins} state bins, states ${p.states.join(', ')}): filter ${formatMs(p.filterMs)} · ` +
    `smoother ${formatMs(p.smoothMs)} · log marginal likelihood ${(Number.isFinite(p.marginalLogLikelihood) ? p.marginalLogLikelihood.toFixed(3) : String(p.marginalLogLikelihood ?? 'not finite'))}\n` +
    `posterior: ${join(outDir, POSTERIOR_DIR)}/ (${POSTERIOR_FILE_NAMES} .npy)\n` +
    (p.localMs !== undefined ? `local likelihood (the Local state) ${formatMs(p.localMs)}\n` : '') +
    wholeDecodeText(p, decodeMs) +
    (p.memory ? `posterior memory: estimated ${formatBytes(p.memory.estimatedBytes)}, measured ${formatBytes(p.memory.measuredBytes)}\n` : '') +
    accuracyText(p)
  );
}


function summaryText(s: DecodeSummary, file: string): string {
  const d = s.dataset;
  return (
    // the two sets overlap where the encoding spans the whole recording and the decode a window of it: never summed
    `${d.name}: ${d.nElectrodes} electrodes, ${d.nEncodingSpikes} encoding and ${d.nDecodingSpikes} decoding spikes, ` +
    `${d.nTime} rows × ${d.nBins} bins on ${s.backend.name} (${s.backend.device})\n` +
    `load ${formatMs(s.loadMs)} · fit ${formatMs(s.fitMs)} · decode ${formatMs(s.decodeMs)} ` +
    `(${s.strategy} → ${[...new Set(s.resolved)].join(', ')}) · peak RSS ${formatBytes(s.peakRssBytes)}\n` +
    `likelihood: ${file}\n` +
    (s.posterior ? posteriorText(s.posterior, dirname(dirname(file)), s.decodeMs) : '') +
    (s.projection ? `${projectionSentence(s.projection)}\n` : '') +
    (s.shard ? `shard ${s.shard.index}/${s.shard.count} (${s.shard.by}): electrodes ${s.shard.electrodes.join(', ')}; merge the shards with kde-profiler merge\n` : '') +
    (s.fingerprint ? `dataset fingerprint: ${s.fingerprint}\n` : '')
  );
}

async function execute(args: string[], io: CliIo): Promise<number> {
  const flags = parseFlags(args, OPTIONS);
  if (boolFlag(flags, 'help')) {
    io.stdout.write(`${DECODE_USAGE}\n`);
    return EXIT.ok;
  }
  const note = oldPosteriorFlagNote(flags);
  if (note) io.stderr.write(note);
  const outFlag = stringFlag(flags, 'out');
  if (outFlag === undefined) throw new UsageError('--out DIR is required: the likelihood is written there');
  // decode's --model and --posterior-method ask for its one posterior (posteriorOf), not for run's timed pair
  const values = { ...flags.values, strategy: flags.values.strategy ?? 'auto', model: undefined, ...WITHOUT_POSTERIOR_METHOD, ...WITHOUT_POSTERIOR_PARAMETERS };
  const config = runConfigFromFlags({ ...flags, values });
  if (config.strategies.length !== 1) throw new UsageError('--strategy: decode takes one strategy (or auto, or nld-dispatch)');
  if (config.data.kind === 'file') config.data = { kind: 'file', path: resolve(io.cwd, config.data.path) };
  config.data = await resolveNwbData(config.data, stringFlag(flags, 'recipe'), io.cwd);
  await checkNpzStart(config.data);
  const rowsPerChunk = intFlag(flags, 'rows-per-chunk', 2) ?? DEFAULT_ROWS_PER_WINDOW;
  const posterior = posteriorOf(flags, config.shard !== undefined);
  const request: DecodeRequest = posterior ? { rowsPerChunk, posterior } : { rowsPerChunk };
  const outDir = resolve(io.cwd, outFlag);
  await checkOutputFolder(outDir, decodeOutputsOf(config.strategies[0]!, posterior !== undefined));

  return withService(io, stringFlag(flags, 'runs-dir'), (service) => decodeAndCopy(service, config, request, outDir, io), true);
}

async function decodeAndCopy(service: ProfilerService, config: RunConfig, request: DecodeRequest, outDir: string, io: CliIo): Promise<number> {
  const strategy = config.strategies[0]!;
  const { runId } = await service.startDecode(config, request);
  const runDir = resolve(service.runsDir, runId);
  const { final, interrupted } = await followRun(service, runId, io, { infoLogs: true });
  if (final.status === 'completed') {
    let summary: DecodeSummary;
    try {
      summary = await copyDecodeOutputs(runId, runDir, outDir, strategy);
    } catch (e) {
      io.stderr.write(notCopiedMessage(runId, e, join(runDir, likelihoodRelPath(strategy))));
      return EXIT.internal;
    }
    io.stdout.write(summaryText(summary, join(outDir, likelihoodRelPath(strategy))));
    io.stderr.write(`run ${runId}: trace and report in ${runDir}\n`);
    await printRunLink(io, service.runsDir, runId, 'results');
    return EXIT.ok;
  }
  const cancelled = final.status === 'cancelled' || interrupted;
  const partial = await keepPartial({ runId, status: final.status }, runDir, outDir, strategy, io);
  if (partial) io.stderr.write(`decode ${cancelled ? 'cancelled' : 'failed'}; the rows written so far are in ${partial}\n`);
  if (cancelled) {
    io.stderr.write(`run ${runId} cancelled; what was recorded is in ${runDir}\n`);
    await printRunLink(io, service.runsDir, runId, 'live');
    return EXIT.interrupted;
  }
  const error = deserializeError(final.error ?? { code: 'RUN_FAILED', message: 'the decode failed' });
  const code = exitCodeFor(error);
  // refused input: one line in the command's own error form, as any other refusal
  if (code === EXIT.usage) throw withEveryProblemPointer(error, config.data);
  io.stderr.write(`error: ${error.message}\n`);
  io.stderr.write(`run ${runId} failed; what was recorded is in ${runDir}\n`);
  await printRunLink(io, service.runsDir, runId, 'live');
  return code;
}

export const decodeCommand: CliCommand = {
  summary: 'decode a long recording in windows, streaming the likelihood to disk',
  usage: DECODE_USAGE,
  flags: OPTIONS,
  run: execute,
};
