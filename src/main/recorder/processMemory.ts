/**
 * Memory of other processes and of the GPU, read from outside. The service samples the engine
 * process this way because the engine's own timers cannot fire while wasm compute holds its event
 * loop; the GPU is asked through nvidia-smi because tf.memory() has no device bytes on every backend.
 */
import { execFile, execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';

const COMMAND_TIMEOUT_MS = 2000;
/** the common page size; ARM64 kernels can use 16 or 64 KiB, which is why getconf is asked first */
const FALLBACK_PAGE_BYTES = 4096;

let pageBytes: number | undefined;

function pageSizeBytes(): number {
  if (pageBytes !== undefined) return pageBytes;
  try {
    const v = Number(execFileSync('getconf', ['PAGESIZE'], { timeout: COMMAND_TIMEOUT_MS, encoding: 'utf8' }).trim());
    pageBytes = Number.isInteger(v) && v > 0 ? v : FALLBACK_PAGE_BYTES;
  } catch {
    pageBytes = FALLBACK_PAGE_BYTES;
  }
  return pageBytes;
}

interface CommandResult {
  stdout: string | null;
  /** the program is not installed */
  missing: boolean;
}

function run(command: string, args: string[]): Promise<CommandResult> {
  return new Promise((resolve) => {
    execFile(command, args, { timeout: COMMAND_TIMEOUT_MS, encoding: 'utf8' }, (err, stdout) => {
      const missing = (err as NodeJS.ErrnoException | null)?.code === 'ENOENT';
      resolve({ stdout: err ? null : stdout, missing });
    });
  });
}

/** Resident set size of process `pid` in bytes, or null when it cannot be read (process gone). */
export async function sampleProcessRssBytes(pid: number): Promise<number | null> {
  if (!Number.isInteger(pid) || pid <= 0) return null;
  if (process.platform === 'linux') {
    try {
      // statm: size resident shared text lib data dt, in pages
      const fields = (await readFile(`/proc/${pid}/statm`, 'utf8')).trim().split(/\s+/);
      const residentPages = Number(fields[1]);
      return Number.isFinite(residentPages) ? residentPages * pageSizeBytes() : null;
    } catch {
      return null;
    }
  }
  const out = (await run('ps', ['-o', 'rss=', '-p', String(pid)])).stdout?.trim() ?? '';
  const kib = out === '' ? Number.NaN : Number(out);
  return Number.isFinite(kib) ? kib * 1024 : null;
}

export interface GpuMemoryInfo {
  index: number;
  name: string;
  usedBytes: number;
  totalBytes: number;
}

const MIB = 1024 * 1024;
let nvidiaSmiMissing = false;

/** Parses `nvidia-smi --query-gpu=memory.used,memory.total,name --format=csv,noheader,nounits` (MiB). */
export function parseNvidiaSmiMemory(text: string): GpuMemoryInfo[] {
  const gpus: GpuMemoryInfo[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const [used, total, ...nameParts] = line.split(',').map((s) => s.trim());
    const usedMiB = Number(used);
    const totalMiB = Number(total);
    if (!Number.isFinite(usedMiB) || !Number.isFinite(totalMiB)) continue;
    gpus.push({ index: gpus.length, name: nameParts.join(','), usedBytes: usedMiB * MIB, totalBytes: totalMiB * MIB });
  }
  return gpus;
}

/** Memory of every NVIDIA GPU, or null when nvidia-smi is absent, fails, or takes over 2 s. */
export async function gpuMemory(): Promise<GpuMemoryInfo[] | null> {
  if (nvidiaSmiMissing) return null;
  const { stdout, missing } = await run('nvidia-smi', ['--query-gpu=memory.used,memory.total,name', '--format=csv,noheader,nounits']);
  // not installed means no NVIDIA driver here: asking again every second would only cost spawns
  if (missing) nvidiaSmiMissing = true;
  if (stdout === null) return null;
  const gpus = parseNvidiaSmiMemory(stdout);
  return gpus.length > 0 ? gpus : null;
}
