/**
 * The flame-chart-js side of the comparison: the run's trace converted to nested nodes
 * (flameChartData.ts) and written as data.json, the page (flameChartPage/) built with Vite beside
 * it in a temporary folder, and both served on loopback. The conversion is kept per run, so a
 * second benchmark of the same run only rebuilds the page.
 */
import { existsSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { readNdjsonRecords } from '../../src/main/export';
import { RUN_FILES } from '../../src/main/engineProtocol';
import { flameChartData } from './flameChartData';
import { serveFolder, type StaticServer } from './staticServer';

const PAGE_DIR = fileURLToPath(new URL('./flameChartPage/', import.meta.url));
const DATA_FILE = 'data.json';

export interface FlameChartSite extends StaticServer {
  /** the folder served: the built page and data.json */
  dir: string;
}

async function writeData(eventsPath: string, file: string, log: (line: string) => void): Promise<void> {
  const started = performance.now();
  const { records } = await readNdjsonRecords(eventsPath);
  const data = flameChartData(records);
  const tmp = `${file}.tmp`;
  await writeFile(tmp, JSON.stringify(data));
  await rename(tmp, file);
  log(`flame-chart-js data: ${data.spans.toLocaleString('en-US')} nodes on ${data.lanes.length} lanes in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

export async function startFlameChartSite(run: { runsDir: string; runId: string }, log: (line: string) => void = () => undefined): Promise<FlameChartSite> {
  const dir = join(tmpdir(), `kde-ui-bench-flame-${run.runId}`);
  await mkdir(dir, { recursive: true });
  const dataFile = join(dir, DATA_FILE);
  if (!existsSync(dataFile)) await writeData(join(run.runsDir, run.runId, RUN_FILES.events), dataFile, log);
  await build({
    root: PAGE_DIR,
    base: './',
    configFile: false,
    logLevel: 'warn',
    build: { outDir: dir, emptyOutDir: false, target: 'es2022', reportCompressedSize: false },
  });
  const server = await serveFolder(dir);
  return { ...server, dir };
}
