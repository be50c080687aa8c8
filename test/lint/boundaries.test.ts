/**
 * The import-boundary rule of eslint.config.js bites: snippets linted as if they were files in
 * each folder break the architecture table and get its message, while the imports the table
 * allows pass. Relative paths are judged by the folder they resolve to, whatever the depth. A
 * folder's index.ts may not hand its importers, through a re-export, what the table forbids them.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BOUNDARY_RULE = 'architecture/import-boundaries';

interface DebtEntry {
  file: string;
  import: string;
  why: string;
}

// the snippets are not in a tsconfig program, so type-aware parsing is off; the rule needs none
const eslint = new ESLint({
  cwd: REPO_ROOT,
  overrideConfig: tseslint.configs.disableTypeChecked,
  ruleFilter: ({ ruleId }) => ruleId === BOUNDARY_RULE,
});

async function boundaryMessages(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  const messages = result?.messages ?? [];
  const fatal = messages.find((m) => m.fatal);
  if (fatal) throw new Error(`${filePath} did not parse: ${fatal.message}`);
  return messages.filter((m) => m.ruleId === BOUNDARY_RULE).map((m) => m.message);
}

/** [file the snippet pretends to be, the snippet, what the message must say] */
const VIOLATIONS: [string, string, RegExp][] = [
  ['src/renderer/src/views/Probe.ts', "import { createProfilerService } from '../../../main/service';", /the renderer imports src\/shared/],
  ['src/renderer/src/views/deep/Probe.ts', "export * from '../../../../main/service';", /the renderer imports src\/shared/],
  ['src/renderer/src/components/Probe.vue', "<script setup lang=\"ts\">\nimport { readFileSync } from 'node:fs';\n</script>", /never node, electron or src\/main/],
  ['src/renderer/src/stores/probe.ts', "import { ipcRenderer } from 'electron';", /the renderer imports/],
  ['src/main/engine/probe.ts', "import { readFile } from 'node:fs/promises';", /the engine imports tfjs, engine\/model and src\/shared only/],
  ['src/main/engine/probe.ts', "import { readFileSync } from 'fs';", /no node built-ins/],
  ['src/main/engine/strategies/probe.ts', "import { Recorder } from '../../recorder';", /the engine imports tfjs/],
  ['src/main/engine/model/probe.ts', "import * as tf from '@tensorflow/tfjs-core';", /engine\/model is tfjs-free/],
  ['src/main/engine/model/probe.ts', "import { fitEncodingModel } from '..';", /engine\/model is tfjs-free/],
  ['src/main/engine/model/probe.ts', "import { initBackend } from '../backends';", /nor the rest of the engine/],
  ['src/main/cli/probe.ts', "import { fitEncodingModel } from '../engine';", /reach the engine only through the service/],
  ['src/main/cli/probe.ts', "export const load = () => import('../engine/index');", /reach the engine only through the service/],
  ['src/main/cli/probe.ts', "import type { EngineProbe } from '../engine/types';", /reach the engine only through the service/],
  ['src/main/cli/probe.ts', "import { forkEngine } from '../host';", /reach the engine only through the service/],
  ['src/main/cli/probe.ts', "export const load = () => import(`../engineProcess/engineRun`);", /reach the engine only through the service/],
  ['src/main/cli/probe.ts', "import engine = require('../engine');\nexport { engine };", /reach the engine only through the service/],
  ['src/main/server/probe.ts', "import { runEngine } from '../engineProcess/engineRun';", /reach the engine only through the service/],
  ['src/main/ipc/probe.ts', "import { ipcMain } from 'electron';", /only the Electron composition root/],
  ['src/main/service/probe.ts', "import { predictNonlocal } from '../engine';", /the engine never loads/],
  ['src/main/host/probe.ts', "import { serve } from '../engineProcess/engineServe';", /the engine never loads/],
  ['src/main/host/probe.ts', "import { utilityProcess } from 'electron';", /only the Electron composition root/],
  ['src/main/engineProcess/probe.ts', "import { forkEngine } from '../host';", /never the service side/],
  ['src/main/engineProcess/probe.ts', "import { app } from 'electron';", /only the Electron composition root/],
  ['src/main/engineProtocol/probe.ts', "import { join } from 'node:path';", /engineProtocol\/ is the wire/],
  ['src/main/analysis/probe.ts', "import { readFile } from 'node:fs/promises';", /analysis\/ is data in, data out/],
  ['src/main/data/probe.ts', "import { fitEncodingModel } from '../engine';", /imported only inside the engine process/],
  ['src/main/export/probe.ts', "import * as tf from '@tensorflow/tfjs-core';", /TensorFlow.js loads only in the engine/],
  ['src/main/recorder/probe.ts', "import { BrowserWindow } from 'electron';", /only the Electron composition root/],
  ['src/main/windowOptions.ts', "import { session } from 'electron';", /only the Electron composition root/],
  ['src/main/probe.ts', "import { mountApp } from '../renderer/src/main';", /never imports the renderer or the preload/],
  ['src/shared/probe.ts', "import { ipcMain } from 'electron';", /src\/shared is the contract/],
  ['src/shared/probe.ts', "import { ProblemSizes } from '../main/engine/model';", /src\/shared is the contract/],
  ['src/preload/probe.ts', "import { registerIpcHandlers } from '../main/ipc';", /the preload imports electron and src\/shared/],
  // allow-lists: what a folder's row does not name is refused, not only what it denies
  ['src/main/data/probe.ts', "import { WebSocketServer } from 'ws';", /data\/ reads and writes data files/],
  ['src/main/host/probe.ts', "import { writeReportJson } from '../export';", /host\/ is the service's side of the engine process/],
  ['src/main/recorder/probe.ts', "import { loadNpz } from '../data';", /recorder\/ records spans/],
  ['src/main/server/probe.ts', "import { loadNpz } from '../data';", /the web-mode server is ProfilerApi/],
  ['src/main/probe.ts', "import { loadNpz } from './data';", /belongs to the Electron composition root/],
  // the door: another folder is entered through its index.ts
  ['src/main/service/probe.ts', "import { parseNpy } from '../data/npy';", /past the index.ts of src\/main\/data.*import from "\.\.\/data"/],
  ['src/main/cli/deep/probe.ts', "export { analyseSweep } from '../../analysis/sweep';", /past the index.ts of src\/main\/analysis.*import from "\.\.\/\.\.\/analysis"/],
  ['src/main/engine/strategies/probe.ts', "import type { OpWork } from '../model/opWork';", /past the index.ts of src\/main\/engine\/model/],
  ['src/main/engineProcess/probe.ts', "const engine = () => import('../engine/types');", /past the index.ts of src\/main\/engine\./],
  // data/'s rooms: each imports the rooms its row names, through their doors; other folders only data/index.ts
  ['src/main/data/npz/probe.ts', "import { loadNpz } from '../clusterlessNpz';", /data\/npz\/ reads \.npy, zip and \.npz bytes/],
  ['src/main/data/clusterlessNpz/probe.ts', "import { parseNpy } from '../npz/npy';", /past the index.ts of src\/main\/data\/npz.*import from "\.\.\/npz"/],
  ['src/main/data/probe.ts', "import { readFile } from 'node:fs/promises';", /its index.ts is the folder's door/],
  ['src/main/service/probe.ts', "import { loadNpz } from '../data/clusterlessNpz';", /service\/ imports host\//],
  // engine/posterior is a tier of its own: tfjs-free, and open only to the folders its row's importers name
  ['src/main/engine/posterior/probe.ts', "import * as tf from '@tensorflow/tfjs-core';", /engine\/posterior is tfjs-free/],
  ['src/main/engine/posterior/probe.ts', "import { EPS } from '../model';", /engine\/posterior is tfjs-free/],
  ['src/main/cli/probe.ts', "import { buildStateSpace } from '../engine/posterior';", /the CLI imports the service/],
  // what a door hands on: the CLI may import the service but not export/, nor the server data/
  ['src/main/service/index.ts', "export { buildPerfettoBundle } from '../export';", /re-exports "\.\.\/export", which hands src\/main\/export on to .*src\/main\/cli/],
  ['src/main/service/index.ts', "import { nestedSubset } from '../data';\nexport { nestedSubset };", /hands src\/main\/data on to .*src\/main\/server.*: they may import src\/main\/service but not src\/main\/data/],
  ['src/main/service/index.ts', "export type { ProblemSizes } from '../engine/model';", /hands src\/main\/engine\/model on to .*src\/main\/ipc/],
  ['src/main/host/index.ts', "export { HEARTBEAT_INTERVAL_MS as HEARTBEAT_MS } from '../engineProtocol';", /hands src\/main\/engineProtocol on to .*src\/main\/index\.ts/],
  // src/main's own files import the service as any importer does: src/main is not a door that hands the service on
  ['src/main/service/index.ts', "export { HEARTBEAT_INTERVAL_MS } from '../engineProtocol';", /hands src\/main\/engineProtocol on to (.*, )?src\/main(, |: )/],
];

/** [file the snippet pretends to be, an import the table allows there] */
const ALLOWED: [string, string][] = [
  ['src/renderer/src/views/Probe.ts', "import type { ProfilerApi } from '../../../shared/api';\nimport { ref } from 'vue';\nimport { use } from 'echarts/core';"],
  ['src/renderer/src/components/Probe.vue', "<script setup lang=\"ts\">\nimport { computed } from 'vue';\nimport { defineStore } from 'pinia';\n</script>"],
  ['src/main/engine/probe.ts', "import * as tf from '@tensorflow/tfjs-core';\nimport { EPS } from './model';\nimport type { RunConfig } from '../../shared/config';"],
  ['src/main/engine/strategies/probe.ts', "import type { StrategyName } from '../../../shared/config';\nimport { EPS } from '../model';"],
  ['src/main/engine/model/probe.ts', "import type { StrategyName } from '../../../shared/config';\nimport { EPS } from './constants';"],
  ['src/main/cli/probe.ts', "import { createProfilerService } from '../service';\nimport { strategyOptionsFor } from '../engine/model';\nimport { readFile } from 'node:fs/promises';"],
  ['src/main/server/probe.ts', "import { WebSocketServer } from 'ws';\nimport type { ProfilerApi } from '../../shared/api';"],
  ['src/main/ipc/probe.ts', "import type { IpcMain } from 'electron';\nimport { createProfilerService } from '../service';"],
  ['src/main/service/probe.ts', "import { forkEngine } from '../host';\nimport { estimateDatasetPeak } from '../engine/model';"],
  ['src/main/host/probe.ts', "import { fork } from 'node:child_process';\nimport type { EngineMessage } from '../engineProtocol';"],
  ['src/main/engineProcess/probe.ts', "import { fitEncodingModel } from '../engine';\nimport { loadDataset } from '../data';\nimport { Recorder } from '../recorder';\nimport { writeFile } from 'node:fs/promises';"],
  ['src/main/engineProtocol/probe.ts', "import type { TraceRecord } from '../../shared/events';"],
  ['src/main/analysis/probe.ts', "import { estimatePeakBytes } from '../engine/model';\nimport type { Report } from '../../shared/report';"],
  ['src/main/index.ts', "import { app, BrowserWindow } from 'electron';\nimport { createProfilerService } from './service';"],
  ['src/main/appMenu.ts', "import type { MenuItemConstructorOptions } from 'electron';"],
  ['src/shared/probe.ts', "import { AppError } from './errors';"],
  ['src/preload/probe.ts', "import { contextBridge } from 'electron';\nimport { API_CHANNELS } from '../shared/ipcChannels';"],
  // inside one folder, and into src/shared (imported module by module), no index.ts is needed
  ['src/main/service/probe.ts', "import { parseNpy } from '../data';\nimport type { RunConfig } from '../../shared/config';\nimport { x } from './queue/runQueue';"],
  ['src/main/engine/ops/probe.ts', "import { EPS } from '../model';\nimport { gauss } from '../simd/gaussKernels';"],
  ['src/main/index.ts', "import { buildAppMenu } from './appMenu';\nimport { windowOptions } from './windowOptions';"],
  ['src/main/engine/probe.test.ts', "import { readFileSync } from 'node:fs';\nimport { loadNpz } from '../data';"],
  ['test/probe.test.ts', "import { app } from 'electron';\nimport { fitEncodingModel } from '../src/main/engine';"],
  ['src/main/data/nwb/probe.ts', "import { checkTrajectory } from '../clusterlessNpz';\nimport { ValidationFindings } from '../validation';\nimport { h5 } from 'h5wasm/node';"],
  ['src/main/data/sweeps/probe.ts', "import { loadDataset } from '../sources';\nimport { writeClusterlessNpz } from '../writers';"],
  ['src/main/service/probe.ts', "import { posteriorMemoryEstimate } from '../engine/posterior';\nimport { loadDataset } from '../data';"],
  ['src/main/engineProcess/posterior/probe.ts', "import { buildStateSpace } from '../../engine/posterior';"],
  // a door may hand on what every folder that imports it may import
  ['src/main/service/index.ts', "export { AppError } from '../../shared/errors';\nexport type { RunConfig } from '../../shared/config';"],
  ['src/main/batch/index.ts', "export { RUN_FILES } from '../engineProtocol';\nexport { ProblemSizes } from '../engine/model';"],
  // not a door: what a module that is not its folder's index.ts re-exports is judged as its import only
  ['src/main/cli/probe.ts', "export { buildPerfettoBundle } from '../service';"],
];

/** A room of the service as the re-export check reads it from disk: a name from export/, names of its own. */
const ROOM_SOURCES = {
  'src/main/service/probeRoom/index.ts': "export { writeChromeTrace } from '../../export';\nexport { ownThing, type OwnType } from './own';\nexport const declaredHere = 1;",
  'src/main/service/probeRoom/own.ts': 'export const ownThing = 1;\nexport interface OwnType { n: number }',
};

/** [the door's text, the message it gets (null: none)], followed through ROOM_SOURCES */
const THROUGH_A_ROOM: [string, RegExp | null][] = [
  ["export { writeChromeTrace } from './probeRoom';", /re-exports "\.\/probeRoom", which hands src\/main\/export on to .*src\/main\/cli/],
  ["export * from './probeRoom';", /hands src\/main\/export on to/],
  ["import { writeChromeTrace as write } from './probeRoom';\nexport { write };", /hands src\/main\/export on to/],
  ["export { ownThing, declaredHere, type OwnType } from './probeRoom';", null],
];

/**
 * A folder's own rooms, as data/'s door reads them: what a room hands on is followed to where it comes
 * from, and the room's own folder is not one of the room's importers (it hands the room on through its
 * own door, judged there). [the door, its text, the files read instead of disk, the message (null: none)]
 */
const THROUGH_OWN_ROOMS: [string, string, Record<string, string>, RegExp | null][] = [
  ['src/main/data/index.ts', "export { loadDataset } from './sources';\nexport * from './validation';", {}, null],
  ['src/main/data/nwb/index.ts', "export type { NwbRecipe } from '../../../shared/nwb';", {}, null],
  ['src/main/data/index.ts', "export * from './files';", { 'src/main/data/files/index.ts': "export { ready } from 'h5wasm/node';" },
    /re-exports "\.\/files", which hands h5wasm on to .*src\/main\/service/],
];

describe('import boundaries', () => {
  it.each(VIOLATIONS)('%s: %s is refused with the architecture rule', async (filePath, code, rule) => {
    const messages = await boundaryMessages(code, filePath);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(rule);
    expect(messages[0]).toMatch(/Architecture rule: .+\. Instead: .+/);
  });

  it.each(ALLOWED)('%s: allowed imports pass', async (filePath, code) => {
    expect(await boundaryMessages(code, filePath)).toEqual([]);
  });

  it.each(THROUGH_A_ROOM)('a door re-exporting %s is judged by where the names come from', async (code, rule) => {
    const following = new ESLint({
      cwd: REPO_ROOT,
      overrideConfig: [tseslint.configs.disableTypeChecked, { rules: { [BOUNDARY_RULE]: ['error', { sources: ROOM_SOURCES }] } }],
      ruleFilter: ({ ruleId }) => ruleId === BOUNDARY_RULE,
    });
    const messages = ((await following.lintText(code, { filePath: 'src/main/service/index.ts' }))[0]?.messages ?? []).map((m) => m.message);
    if (rule === null) {
      expect(messages).toEqual([]);
      return;
    }
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(rule);
    expect(messages[0]).toMatch(/Architecture rule: .+\. Instead: .+/);
  });

  it.each(THROUGH_OWN_ROOMS)('%s re-exporting its rooms: %s', async (filePath, code, sources, rule) => {
    const following = new ESLint({
      cwd: REPO_ROOT,
      overrideConfig: [tseslint.configs.disableTypeChecked, { rules: { [BOUNDARY_RULE]: ['error', { sources }] } }],
      ruleFilter: ({ ruleId }) => ruleId === BOUNDARY_RULE,
    });
    const messages = ((await following.lintText(code, { filePath }))[0]?.messages ?? []).map((m) => m.message);
    if (rule === null) {
      expect(messages).toEqual([]);
      return;
    }
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatch(rule);
  });

  it('every debt entry in the config says why', async () => {
    const { DEBT } = (await import(pathToFileURL(`${REPO_ROOT}eslint-rules/boundaryTable.js`).href)) as { DEBT: DebtEntry[] };
    for (const entry of DEBT) expect(entry.why.length).toBeGreaterThan(20);
  });

  it('every debt entry names a file that exists (the rule cannot report an entry for a file that is gone)', async () => {
    const { DEBT } = (await import(pathToFileURL(`${REPO_ROOT}eslint-rules/boundaryTable.js`).href)) as { DEBT: DebtEntry[] };
    expect(DEBT.map((e) => e.file).filter((file) => !existsSync(`${REPO_ROOT}${file}`))).toEqual([]);
  });

  it('an import the table refuses but the debt list names passes, and a debt entry with no import left is reported', async () => {
    const entry: DebtEntry = { file: 'src/main/cli/probe.ts', import: '../host', why: 'a fixture entry for this test' };
    const withDebt = new ESLint({
      cwd: REPO_ROOT,
      overrideConfig: [tseslint.configs.disableTypeChecked, { rules: { [BOUNDARY_RULE]: ['error', { debt: [entry] }] } }],
      ruleFilter: ({ ruleId }) => ruleId === BOUNDARY_RULE,
    });
    const lint = async (code: string) => ((await withDebt.lintText(code, { filePath: entry.file }))[0]?.messages ?? []).map((m) => m.message);
    expect(await lint(`import * as debt from '${entry.import}';\nexport { debt };`)).toEqual([]);
    expect(await lint('export const nothing = 0;')).toEqual([expect.stringContaining(`lists "${entry.import}" for this file, which no longer imports it`)]);
    // without the entry the same import is refused
    expect(await boundaryMessages(`import * as debt from '${entry.import}';\nexport { debt };`, entry.file)).toHaveLength(1);
  });
});
