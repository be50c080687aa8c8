/**
 * `kde-profiler serve`: web mode. Starts the service and the loopback server, prints the URL with
 * its token (and with --open, the link to one run's results), records itself in the runs folder
 * so `run` and `decode` can print links to their runs, and runs until SIGINT/SIGTERM, then
 * cancels runs, removes that record and closes cleanly. A read-only runs folder is served for
 * browsing: serve says no run can start there, and records nothing in it.
 */
import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../server';
import { createProfilerService, type ProfilerService } from '../service';
import { boolFlag, intFlag, parseFlags, stringFlag } from './args';
import { PRESETS, type PresetName } from '../../shared/config';
import { exampleRunConfig } from '../../shared/exampleRun';
import { openInBrowser } from './openBrowser';
import { RUN_ID_PATTERN } from '../../shared/runIds';
import { EXIT, UsageError, type CliCommand, type CliIo } from './cliTypes';
import { checkedRunsDir, defaultRunsDir } from './cliService';
import { removeServeInfo, runLink, writeServeInfo } from './serverLink';

const USAGE = `kde-profiler serve [--port N] [--runs-dir DIR] [--static-dir DIR] [--example PRESET | --open RUN] [--no-browser]
  --example PRESET  starts a run of every strategy on the preset and opens the page watching it
  --open RUN        opens the page on that run's results
  --no-browser      prints the link without opening a browser (none opens where no display is set)`;

const OPTIONS = {
  port: { type: 'string' },
  'runs-dir': { type: 'string' },
  'static-dir': { type: 'string' },
  example: { type: 'string' },
  open: { type: 'string' },
  'no-browser': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** out/renderer of this checkout, where `npm run build` puts the renderer: from source (src/main/cli) or the CLI's build (out/cli). */
function defaultStaticDir(): string {
  return fileURLToPath(new URL(import.meta.url.endsWith('.ts') ? '../../../out/renderer' : '../renderer', import.meta.url));
}

export interface ServeHandle {
  url: string;
  close(): Promise<void>;
}

/**
 * What the command does, minus waiting for a signal: tests and `npm start` call this directly.
 * A service handed in is the server's from then on: close() closes it too.
 */
export async function startWebMode(options: { port?: number; runsDir: string; staticDir?: string; service?: ProfilerService }): Promise<ServeHandle> {
  const service = options.service ?? createProfilerService({ runsDir: options.runsDir, servesPages: true });
  try {
    const server = await startServer({ service, port: options.port, host: '127.0.0.1', staticDir: options.staticDir ?? defaultStaticDir() });
    return {
      url: server.url,
      async close() {
        await server.close();
        await service.close();
      },
    };
  } catch (e) {
    await service.close();
    throw e;
  }
}

function waitForSignal(): Promise<string> {
  return new Promise<NodeJS.Signals>((resolveSignal) => {
    process.once('SIGINT', () => resolveSignal('SIGINT'));
    process.once('SIGTERM', () => resolveSignal('SIGTERM'));
  });
}

/**
 * The command with what stops it handed in (a signal for the command, a promise a test resolves);
 * `stopped` resolves with the reason to print.
 */
export async function serveUntil(args: string[], io: CliIo, stopped: () => Promise<string>): Promise<number> {
  const flags = parseFlags(args, OPTIONS);
  const example = stringFlag(flags, 'example');
  if (example !== undefined && !(PRESETS as readonly string[]).includes(example)) {
    throw new UsageError(`--example: expected a preset (${PRESETS.join(', ')}), got '${example}'`);
  }
  const open = stringFlag(flags, 'open');
  if (open !== undefined && !RUN_ID_PATTERN.test(open)) {
    throw new UsageError(`--open: expected a run id like 20250101-120000-a1b2c3 (\`kde-profiler list\` shows them), got '${open}'`);
  }
  if (open !== undefined && example !== undefined) throw new UsageError('--open and --example each choose the page to open: give one of them');
  if (boolFlag(flags, 'help')) {
    io.stdout.write(`${USAGE}\n`);
    return EXIT.ok;
  }
  const port = intFlag(flags, 'port', 0, 65535);
  const staticFlag = stringFlag(flags, 'static-dir');
  const staticDir = staticFlag === undefined ? defaultStaticDir() : resolve(io.cwd, staticFlag);
  if (!existsSync(join(staticDir, 'index.html'))) {
    io.stderr.write(`kde-profiler serve: the renderer is not built (no ${join(staticDir, 'index.html')}): run \`npm run build\` first.\n`);
    return EXIT.internal;
  }
  const runsFlag = stringFlag(flags, 'runs-dir');
  // an existing folder may be read-only (an archive, a snapshot): browsed, never run in; a missing one must be made
  const exists = await stat(defaultRunsDir(io, runsFlag)).then((s) => s.isDirectory(), () => false);
  const runsDir = await checkedRunsDir(io, runsFlag, !exists);
  const service = createProfilerService({ runsDir, servesPages: true });
  // a link to a run that is not there would open on an error: say so before serving anything
  if (open !== undefined && !(await runExists(service, open))) {
    await service.close();
    io.stderr.write(`kde-profiler serve: --open: run ${open} is not in ${service.runsDir}: \`kde-profiler list --runs-dir ${service.runsDir}\` shows the runs there.\n`);
    return EXIT.usage;
  }
  const handle = await startWebMode({ port, runsDir, staticDir, service });
  try {
    const folder = await service.runsFolder();
    // where no run can start, no run or decode there will look for this server's address
    if (folder.canStartRuns) await recordServer(io, service.runsDir, handle.url);
    else io.stderr.write(`kde-profiler serve: browsing only: ${folder.reason ?? `no run can start in ${service.runsDir}.`}\n`);
    io.stdout.write(`KDE Profiler web mode: ${handle.url}\n`);
    const page = await firstPage(service, handle.url, example as PresetName | undefined, open);
    if (page) {
      io.stdout.write(`${page.what}: ${page.url}\n`);
      if (!boolFlag(flags, 'no-browser') && (await openInBrowser(page.url))) io.stdout.write('(opened in your browser)\n');
    }
    io.stdout.write('(loopback only; from another machine: ssh -L PORT:127.0.0.1:PORT, then open the URL there. Ctrl+C stops.)\n');
    const reason = await stopped();
    io.stderr.write(`kde-profiler serve: ${reason}, stopping\n`);
  } finally {
    await removeServeInfo(service.runsDir, process.pid).catch(() => undefined);
    await handle.close();
  }
  return EXIT.ok;
}

/**
 * The page to open: the example's run, started here on the service so that every visit watches the
 * same run (the page used to start one per visit), or the results of the run asked for.
 */
async function firstPage(service: ProfilerService, base: string, example: PresetName | undefined, open: string | undefined): Promise<{ what: string; url: string } | undefined> {
  if (example !== undefined) {
    const { runId } = await service.startRun(exampleRunConfig(example));
    return { what: `Example run ${runId} (every strategy on preset ${example})`, url: runLink(base, runId, 'live') };
  }
  return open === undefined ? undefined : { what: `Results of run ${open}`, url: runLink(base, open, 'results') };
}

async function runExists(service: ProfilerService, runId: string): Promise<boolean> {
  try {
    await service.getRun(runId);
    return true;
  } catch (e) {
    if ((e as { code?: unknown }).code === 'NOT_FOUND') return false;
    throw e;
  }
}

/** run and decode print links to this server; a folder that cannot take the record only loses those links */
async function recordServer(io: CliIo, runsDir: string, url: string): Promise<void> {
  try {
    await writeServeInfo(runsDir, { url, pid: process.pid });
  } catch (e) {
    io.stderr.write(`kde-profiler serve: warning: cannot write the server's address into ${runsDir} (${(e as Error).message}); run and decode will not print links to it.\n`);
  }
}

export const serveCommand: CliCommand = {
  summary: 'serve the app in a browser (web mode) on 127.0.0.1 with a token',
  usage: USAGE,
  flags: OPTIONS,
  run: (args, io) => serveUntil(args, io, waitForSignal),
};
