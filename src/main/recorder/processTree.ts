/**
 * Resident memory of a process and everything it started, read from outside: an external engine
 * is often a launcher (a shell, `uv run`, a Python that forks compile workers), so its own RSS
 * alone would miss where the memory is.
 */
import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { sampleProcessRssBytes } from './processMemory';

/** a tree larger than this is cut: sampling must stay cheap at 10 Hz */
const MAX_TREE_PROCESSES = 256;
const PS_TIMEOUT_MS = 2000;

/** Children of `pid` from /proc/PID/task/TID/children (Linux 3.5+); empty when the kernel has none. */
async function linuxChildren(pid: number): Promise<number[]> {
  let tasks: string[];
  try {
    tasks = await readdir(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  const children: number[] = [];
  for (const tid of tasks) {
    try {
      const text = await readFile(`/proc/${pid}/task/${tid}/children`, 'utf8');
      for (const word of text.split(/\s+/)) if (/^\d+$/.test(word)) children.push(Number(word));
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return children;
}

async function linuxTreeRss(root: number): Promise<number | null> {
  const rootRss = await sampleProcessRssBytes(root);
  if (rootRss === null) return null;
  let total = rootRss;
  const seen = new Set([root]);
  const queue = await linuxChildren(root);
  while (queue.length > 0 && seen.size < MAX_TREE_PROCESSES) {
    const pid = queue.shift()!;
    if (seen.has(pid)) continue;
    seen.add(pid);
    total += (await sampleProcessRssBytes(pid)) ?? 0;
    queue.push(...(await linuxChildren(pid)));
  }
  return total;
}

/** Sums the RSS (KiB) of `root` and its descendants from `ps -A -o pid=,ppid=,rss=` output. */
export function treeRssFromPs(text: string, root: number): number | null {
  const rows = new Map<number, { ppid: number; rssKiB: number }>();
  for (const line of text.split('\n')) {
    const [pid, ppid, rss] = line.trim().split(/\s+/).map(Number);
    if (Number.isInteger(pid) && Number.isInteger(ppid) && Number.isFinite(rss)) rows.set(pid!, { ppid: ppid!, rssKiB: rss! });
  }
  if (!rows.has(root)) return null;
  const inTree = new Set([root]);
  let grew = true;
  while (grew && inTree.size < MAX_TREE_PROCESSES) {
    grew = false;
    for (const [pid, row] of rows) {
      if (!inTree.has(pid) && inTree.has(row.ppid)) {
        inTree.add(pid);
        grew = true;
      }
    }
  }
  let kib = 0;
  for (const pid of inTree) kib += rows.get(pid)?.rssKiB ?? 0;
  return kib * 1024;
}

/** RSS in bytes of `pid` and its descendants, or null when `pid` is gone or cannot be read. */
export async function sampleProcessTreeRssBytes(pid: number): Promise<number | null> {
  if (!Number.isInteger(pid) || pid <= 0) return null;
  if (process.platform === 'linux') return linuxTreeRss(pid);
  return new Promise((resolve) => {
    execFile('ps', ['-A', '-o', 'pid=,ppid=,rss='], { timeout: PS_TIMEOUT_MS, encoding: 'utf8', maxBuffer: 8 * 2 ** 20 }, (err, stdout) => {
      resolve(err ? null : treeRssFromPs(stdout, pid));
    });
  });
}
