/**
 * `kde-profiler serve`: web mode. Starts the service and the loopback server, prints the URL with
 * its token, and runs until SIGINT/SIGTERM, then cancels runs and closes cleanly.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../server';
import { createProfilerService } from '../service';
import { boolFlag, intFlag, parseFlags, stringFlag } from './args';
import { PRESETS } from '../../shared/config';
import { EXIT, UsageError, type CliCommand, type CliIo } from './cliTypes';
import { defaultRunsDir } from './runCommand';

const USAGE = 'kde-profiler serve [--port N] [--runs-dir DIR] [--static-dir DIR] [--example PRESET]';

/** out/renderer of this checkout, where `npm run build` puts the renderer. */
function defaultStaticDir(): string {
  return fileURLToPath(new URL('../../../out/renderer', import.meta.url));
}

export interface ServeHandle {
  url: string;
  close(): Promise<void>;
}

/** What the command does, minus waiting for a signal: tests and `npm start` call this directly. */
export async function startWebMode(options: { port?: number; runsDir: string; staticDir?: string }): Promise<ServeHandle> {
  const service = createProfilerService({ runsDir: options.runsDir });
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

async function execute(args: string[], io: CliIo): Promise<number> {
  const flags = parseFlags(args, {
    port: { type: 'string' },
    'runs-dir': { type: 'string' },
    'static-dir': { type: 'string' },
    example: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  const example = stringFlag(flags, 'example');
  if (example !== undefined && !(PRESETS as readonly string[]).includes(example)) {
    throw new UsageError(`--example: expected a preset (${PRESETS.join(', ')}), got '${example}'`);
  }
  if (boolFlag(flags, 'help')) {
    io.stdout.write(`${USAGE}\n`);
    return EXIT.ok;
  }
  const port = intFlag(flags, 'port', 0);
  const staticFlag = stringFlag(flags, 'static-dir');
  const staticDir = staticFlag === undefined ? defaultStaticDir() : resolve(io.cwd, staticFlag);
  if (!existsSync(join(staticDir, 'index.html'))) {
    io.stderr.write(`kde-profiler serve: the renderer is not built (no ${join(staticDir, 'index.html')}): run \`npm run build\` first.\n`);
    return EXIT.internal;
  }
  const handle = await startWebMode({ port, runsDir: defaultRunsDir(io, stringFlag(flags, 'runs-dir')), staticDir });
  // the page starts a run of every strategy on the preset when its address asks for an example
  const url = example === undefined ? handle.url : `${handle.url}#/live?example=${example}`;
  io.stdout.write(`KDE Profiler web mode: ${url}\n(loopback only; from another machine: ssh -L PORT:127.0.0.1:PORT, then open the URL there. Ctrl+C stops.)\n`);
  const signal = await new Promise<NodeJS.Signals>((resolveSignal) => {
    process.once('SIGINT', () => resolveSignal('SIGINT'));
    process.once('SIGTERM', () => resolveSignal('SIGTERM'));
  });
  io.stderr.write(`kde-profiler serve: ${signal}, stopping\n`);
  await handle.close();
  return EXIT.ok;
}

export const serveCommand: CliCommand = { summary: 'serve the app in a browser (web mode) on 127.0.0.1 with a token', usage: USAGE, run: execute };
