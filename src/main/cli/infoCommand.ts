/**
 * `kde-profiler info`: versions, this machine, and which backends and devices are available, as the
 * service reports them (it probes the backends in a short-lived engine process).
 */
import { formatBytes } from '../../shared/format';
import { boolFlag, parseFlags } from './args';
import { withService } from './cliService';
import { EXIT, type CliCommand, type CliIo } from './cliTypes';
import { table } from './table';

const USAGE = 'kde-profiler info [--json]';
const OPTIONS = { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } as const;

/** What `--backend auto` will do here: measure a hardware GPU against the CPU on each run's data, or take the CPU. */
function autoSentence(backends: readonly { name: string; available: boolean; isGpu: boolean }[]): string {
  const gpu = backends.find((b) => b.name === 'webgpu' && b.available && b.isGpu);
  return gpu
    ? '--backend auto: each run times a slice of its own data (its largest electrode) on the GPU and on the CPU\'s threads and takes the faster; the report says what it measured.'
    : '--backend auto: no hardware GPU adapter here, so runs take the CPU (wasm, on every core) without measuring.';
}

/** Which command line runs: its JavaScript build, or the TypeScript sources compiled at every start (slower). */
function commandLineBuild(): string {
  return import.meta.url.endsWith('.ts')
    ? 'command line: from the TypeScript sources through tsx (a source is newer than out/cli, or it is not built; `npm run build:cli` makes it start faster)'
    : 'command line: its JavaScript build (out/cli)';
}

async function execute(args: string[], io: CliIo): Promise<number> {
  const flags = parseFlags(args, OPTIONS);
  if (boolFlag(flags, 'help')) {
    io.stdout.write(`${USAGE}\n`);
    return EXIT.ok;
  }
  const info = await withService(io, undefined, (service) => service.getInfo());
  if (boolFlag(flags, 'json')) {
    io.stdout.write(`${JSON.stringify(info, null, 2)}\n`);
    return EXIT.ok;
  }
  io.stdout.write(
    `kde-profiler ${info.version} · TensorFlow.js ${info.tfjsVersion} · Node ${info.node} · ${info.platform}\n` +
      `${info.cpus} CPUs, ${formatBytes(info.totalMemoryBytes)} memory; default backend ${info.defaultBackend}\n` +
      `${commandLineBuild()}\n\n`,
  );
  const rows = info.backends.map((b) => [b.name, b.available ? 'yes' : 'no', b.isGpu ? 'GPU' : 'CPU', b.detail]);
  io.stdout.write(`${table([['backend', 'available', 'device', 'detail'], ...rows])}\n`);
  io.stdout.write(`\n${autoSentence(info.backends)}\n`);
  return EXIT.ok;
}

export const infoCommand: CliCommand = { summary: 'backends and devices available here, versions', usage: USAGE, flags: OPTIONS, run: execute };
