/**
 * The import table of docs/architecture.md ("Who may import whom") as data for the
 * import-boundary rule. Every folder has an allow-list; the deny entries before it only give the
 * commonest mistakes a message of their own.
 *
 * An import's target is its folder in src/ (the longest folder below that has a row), `node:*`
 * for a Node built-in, or an npm package name ('*' matches any package, 'scope/*' a scope).
 */

const NO_ELECTRON = {
  deny: ['electron'],
  rule: 'only the Electron composition root (src/main/index.ts) imports electron; ipc/ and appMenu.ts may import its types',
  instead: 'take the Electron object as an argument that src/main/index.ts hands in (as host/ takes utilityProcess)',
};
const ELECTRON_TYPES_ONLY = { ...NO_ELECTRON, typeOnlyAllowed: true };
const NO_TFJS = {
  deny: ['@tensorflow/*'],
  rule: 'TensorFlow.js loads only in the engine (src/main/engine)',
  instead: 'call the engine from engineProcess/, or use src/main/engine/model for tfjs-free decisions',
};
const ENGINE_PROCESS_ONLY = {
  deny: ['src/main/engine', 'src/main/engineProcess'],
  rule: 'the engine (its entry loads TensorFlow.js) and engineProcess/ are imported only inside the engine process, by engineProcess/',
  instead: 'run engine work through the service (host/ spawns engineProcess/engineMain by path); sizes, memory formulas and auto dispatch come from src/main/engine/model',
};
const NO_FRONTEND = {
  deny: ['src/renderer', 'src/preload'],
  rule: 'src/main never imports the renderer or the preload',
  instead: 'move what both sides need into src/shared',
};
const THROUGH_THE_SERVICE = {
  deny: ['src/main/engine', 'src/main/engineProcess', 'src/main/host'],
  rule: 'the CLI, the server and IPC reach the engine only through the service',
  instead: 'call src/main/service (it runs the engine in its own process); tfjs-free decisions come from src/main/engine/model',
};
const SERVICE_SIDE = {
  deny: ['src/main/engine', 'src/main/engineProcess'],
  rule: 'service/ and host/ run in the service process, where the engine never loads',
  instead: 'host/ spawns engineProcess/engineMain by path and talks engineProtocol messages; tfjs-free decisions come from src/main/engine/model, the posterior\'s formulas from src/main/engine/posterior',
};
const MAIN_DEFAULTS = [NO_ELECTRON, NO_TFJS, ENGINE_PROCESS_ONLY, NO_FRONTEND];

/** The allow-list of a folder, with the sentence its message quotes. */
function only(allow, rule, instead) {
  return { allow, rule, instead };
}

/** Folder (or file) of src/ → the constraints on what its files import, checked in order. */
export const BOUNDARIES = {
  'src/shared': [only(
    ['src/shared'],
    'src/shared is the contract: it imports nothing outside src/shared (no node, electron, main or renderer)',
    'move what it needs into src/shared, or keep the code that needs it on the side that uses it',
  )],
  'src/renderer': [only(
    ['src/renderer', 'src/shared', 'vue', 'pinia', 'echarts', 'vue-echarts'],
    'the renderer imports src/shared, vue, pinia, echarts and vue-echarts only: never node, electron or src/main',
    'reach the service through ProfilerApi (src/renderer/src/api); what both sides need belongs in src/shared',
  )],
  'src/preload': [only(
    ['src/preload', 'src/shared', 'electron'],
    'the preload imports electron and src/shared (the contract) only',
    'channel names and argument shapes come from src/shared (ipcChannels, apiArgs); handlers belong in src/main/ipc',
  )],
  'src/main': [...MAIN_DEFAULTS, only(
    ['src/main', 'src/main/service', 'src/shared', 'node:*'],
    'a file directly in src/main belongs to the Electron composition root, which wires the service to IPC',
    'put the code in the folder of the process that runs it (docs/architecture.md, Folders)',
  )],
  'src/main/index.ts': [NO_TFJS, ENGINE_PROCESS_ONLY, NO_FRONTEND, only(
    ['src/main', 'src/main/appMenu.ts', 'src/main/host', 'src/main/ipc', 'src/main/service', 'src/shared', 'electron', 'node:*'],
    'the Electron composition root imports electron, the service, host/ (to hand it utilityProcess), ipc/ and src/shared',
    'keep it a thin root: move the logic into the service or ipc/ and wire it here',
  )],
  'src/main/appMenu.ts': [ELECTRON_TYPES_ONLY, NO_TFJS, ENGINE_PROCESS_ONLY, NO_FRONTEND, only(
    ['src/main', 'src/shared', 'electron'],
    'the menu template imports electron types and src/shared only',
    'menu commands are names from src/shared/ipcChannels; what they do belongs to the page or the service',
  )],
  'src/main/engine': [only(
    ['src/main/engine', 'src/main/engine/model', 'src/shared', '@tensorflow/*'],
    'the engine imports tfjs, engine/model and src/shared only: no node built-ins, electron, recorder or other src/main folder',
    'do file, process and data work in engineProcess/ (or data/) and pass the result in; report through the EngineProbe handed to the engine',
  )],
  'src/main/engine/model': [only(
    ['src/main/engine/model', 'src/shared'],
    'engine/model is tfjs-free: it imports src/shared and itself only (no tfjs, node, electron, nor the rest of the engine, whose entry loads tfjs)',
    'move what both need into engine/model; the engine imports the model, never the other way round',
  )],
  'src/main/engine/posterior': [only(
    ['src/main/engine/posterior', 'src/shared'],
    'engine/posterior is tfjs-free: it imports src/shared and itself only (no tfjs, node, electron, engine/model nor the rest of the engine, whose entry loads tfjs)',
    'take what the posterior needs (the place grid, the likelihood rows) as arguments; engineProcess/posterior drives it, and its formulas are imported from engine/posterior directly',
  )],
  'src/main/engineProcess': [NO_ELECTRON, NO_TFJS, only(
    [
      'src/main/engineProcess', 'src/main/engine', 'src/main/engine/model', 'src/main/engine/posterior', 'src/main/data', 'src/main/recorder',
      'src/main/analysis', 'src/main/engineProtocol', 'src/main/workers', 'src/shared', 'node:*',
    ],
    'engineProcess/ runs inside the engine process: it imports the engine, engine/model, engine/posterior, data/, recorder/, analysis/, engineProtocol/, workers/ and src/shared, never the service side (host/, service/, cli/, server/, ipc/)',
    'send the service an engineProtocol message instead of calling it',
  )],
  'src/main/engineProtocol': [only(
    ['src/main/engineProtocol', 'src/shared'],
    'engineProtocol/ is the wire between host/ and engineProcess/: it imports src/shared and itself only',
    'keep message types, guards and constants here or in src/shared; behaviour belongs to host/ (service side) or engineProcess/ (engine side)',
  )],
  'src/main/analysis': [only(
    ['src/main/analysis', 'src/main/engine/model', 'src/main/engine/posterior', 'src/shared'],
    'analysis/ is data in, data out: it imports src/shared, src/main/engine/model and src/main/engine/posterior only (no tfjs, node or electron)',
    'let the caller (service, CLI, engineProcess) read files or run the engine and pass the data in',
  )],
  'src/main/host': [SERVICE_SIDE, ...MAIN_DEFAULTS, only(
    ['src/main/host', 'src/main/engineProtocol', 'src/shared', 'node:*'],
    'host/ is the service\'s side of the engine process: it imports node, engineProtocol/ and src/shared only',
    'judge what the engine sent in the service; host/ only spawns, talks, samples and kills',
  )],
  'src/main/service': [SERVICE_SIDE, ...MAIN_DEFAULTS, only(
    [
      'src/main/service', 'src/main/host', 'src/main/engineProtocol', 'src/main/data', 'src/main/recorder', 'src/main/analysis',
      'src/main/export', 'src/main/engine/model', 'src/main/engine/posterior', 'src/shared', 'node:*',
    ],
    'service/ imports host/, engineProtocol/, data/, recorder/, analysis/, export/, engine/model, engine/posterior, src/shared and node only',
    'a front door (cli/, server/, ipc/) or a batch job (batch/) calls the service, never the other way round',
  )],
  'src/main/batch': [...MAIN_DEFAULTS, only(
    [
      'src/main/batch', 'src/main/service', 'src/main/engineProtocol', 'src/main/data', 'src/main/analysis', 'src/main/export',
      'src/main/engine/model', 'src/shared', 'node:*',
    ],
    'batch/ works on recorded runs outside the queue (merging shard runs): it imports the service\'s index.ts, engineProtocol/ (a run\'s file layout), data/, analysis/, export/, engine/model, src/shared and node',
    'a batch job reads and writes run folders through the service\'s store; the CLI starts it',
  )],
  'src/main/cli': [THROUGH_THE_SERVICE, ...MAIN_DEFAULTS, only(
    [
      'src/main/cli', 'src/main/service', 'src/main/batch', 'src/main/server', 'src/main/engineProtocol', 'src/main/data', 'src/main/analysis',
      'src/main/engine/model', 'src/shared', 'node:*',
    ],
    'the CLI imports the service, batch/, server/ (for serve), engineProtocol/ (a run folder\'s layout, decode\'s request), data/, analysis/, engine/model, src/shared and node',
    'a long computation is a recorded run of the service, never a second engine driver in the CLI process',
  )],
  'src/main/server': [THROUGH_THE_SERVICE, ...MAIN_DEFAULTS, only(
    ['src/main/server', 'src/main/service', 'src/shared', 'ws', 'node:*'],
    'the web-mode server is ProfilerApi over HTTP and WebSocket: it imports node, ws, the service and src/shared only',
    'take the service (a ProfilerApi) as an argument, as startServer does',
  )],
  'src/main/ipc': [THROUGH_THE_SERVICE, ELECTRON_TYPES_ONLY, NO_TFJS, NO_FRONTEND, only(
    ['src/main/ipc', 'src/main/service', 'src/shared', 'electron'],
    'ipc/ is ProfilerApi over Electron IPC: it imports electron types, the service and src/shared only',
    'take the service (a ProfilerApi) and ipcMain as arguments from src/main/index.ts',
  )],
  'src/main/data': [...MAIN_DEFAULTS, only(
    [
      'src/main/data', 'src/main/data/sources', 'src/main/data/clusterlessNpz', 'src/main/data/nwb', 'src/main/data/validation',
      'src/main/data/npz', 'src/main/data/files', 'src/main/data/writers', 'src/main/data/grid', 'src/main/data/presets',
      'src/main/data/dataset', 'src/main/data/sweeps',
    ],
    'data/ reads and writes data files, in its rooms: its index.ts is the folder\'s door and imports its rooms only',
    'put the code in the room it belongs to (or a new room with its own row) and export it from data/index.ts',
  )],
  'src/main/data/sources': [...MAIN_DEFAULTS, only(
    [
      'src/main/data/sources', 'src/main/data/clusterlessNpz', 'src/main/data/nwb', 'src/main/data/presets', 'src/main/data/dataset',
      'src/shared', 'node:*',
    ],
    'data/sources/ turns a DataSource into a Dataset: it imports node, clusterlessNpz/, nwb/, presets/, dataset/ and src/shared only',
    'a loader never imports sources/; give the loader what it needs as an argument',
  )],
  'src/main/data/clusterlessNpz': [...MAIN_DEFAULTS, only(
    [
      'src/main/data/clusterlessNpz', 'src/main/data/npz', 'src/main/data/validation', 'src/main/data/grid', 'src/main/engine/model',
      'src/shared', 'node:*',
    ],
    'data/clusterlessNpz/ is the clusterless-npz/1 loader: it imports node, npz/, validation/, grid/, engine/model and src/shared only',
    'a rule both loaders apply belongs in validation/; NWB imports the loader, never the other way round',
  )],
  'src/main/data/nwb': [...MAIN_DEFAULTS, only(
    [
      'src/main/data/nwb', 'src/main/data/validation', 'src/main/data/clusterlessNpz', 'src/main/data/files', 'src/main/data/dataset',
      'src/main/workers', 'src/main/engine/model', 'src/shared', 'node:*', 'h5wasm',
    ],
    'data/nwb/ is NWB/HDF5 import: it imports node, h5wasm, validation/, clusterlessNpz/ (its position and grid rules), files/, dataset/, workers/, engine/model and src/shared only',
    'return the Dataset and its findings; choosing the loader by path is sources/\' work',
  )],
  'src/main/data/validation': [...MAIN_DEFAULTS, only(
    ['src/main/data/validation', 'src/main/data/npz', 'src/shared'],
    'data/validation/ holds the findings and the rules both loaders share: it imports npz/ and src/shared only',
    'the loaders call the rules with what they read; a rule never reads a file itself',
  )],
  'src/main/data/npz': [...MAIN_DEFAULTS, only(
    ['src/main/data/npz', 'src/main/data/files', 'src/shared', 'node:*'],
    'data/npz/ reads .npy, zip and .npz bytes: it imports node, files/ and src/shared only',
    'what a clusterless-npz/1 file means belongs to clusterlessNpz/; the container knows arrays only',
  )],
  'src/main/data/files': [...MAIN_DEFAULTS, only(
    ['src/main/data/files', 'src/shared', 'node:*'],
    'data/files/ opens files safely: it imports node and src/shared only',
    'keep file formats in their rooms; this room only checks and opens',
  )],
  'src/main/data/writers': [...MAIN_DEFAULTS, only(
    ['src/main/data/writers', 'src/main/data/npz', 'src/main/data/files', 'src/shared', 'node:*'],
    'data/writers/ writes .npy, zip and clusterless-npz/1 files: it imports node, npz/ (the zip checksum), files/ and src/shared only',
    'a writer never imports a loader; a test reads back what it wrote',
  )],
  'src/main/data/grid': [...MAIN_DEFAULTS, only(
    ['src/main/data/grid', 'src/shared'],
    'data/grid/ builds the place grid: it imports src/shared only',
    'take the positions and bin size as arguments',
  )],
  'src/main/data/presets': [...MAIN_DEFAULTS, only(
    ['src/main/data/presets', 'src/main/data/grid', 'src/main/engine/model', 'src/shared'],
    'data/presets/ builds synthetic data in memory: it imports grid/, engine/model and src/shared only',
    'writing a preset to a file is writers/\' work (or scripts/make-recording.ts\')',
  )],
  'src/main/data/dataset': [...MAIN_DEFAULTS, only(
    ['src/main/data/dataset', 'src/shared', 'node:*'],
    'data/dataset/ computes from a loaded Dataset (fingerprint, shards, preview): it imports node and src/shared only',
    'take the Dataset as an argument; loading it is sources/\' work',
  )],
  'src/main/data/sweeps': [...MAIN_DEFAULTS, only(
    ['src/main/data/sweeps', 'src/main/data/sources', 'src/main/data/presets', 'src/main/data/grid', 'src/main/data/writers', 'src/shared', 'node:*'],
    'data/sweeps/ writes a sweep\'s data files: it imports node, sources/, presets/, grid/, writers/ and src/shared only',
    'the sweep\'s folder and its results belong to the service (service/sweeps/)',
  )],
  'src/main/workers': [...MAIN_DEFAULTS, only(
    ['src/main/workers', 'node:*'],
    'workers/ starts worker threads on the project\'s own modules: it imports node only',
    'keep what the worker does in the folder that owns it; this folder only starts it',
  )],
  'src/main/export': [...MAIN_DEFAULTS, only(
    ['src/main/export', 'src/main/engineProtocol', 'src/main/engine/model', 'src/shared', 'resources/report.schema.json', 'node:*', 'ajv', 'fflate'],
    'export/ writes traces and reports: it imports node, ajv, fflate, engineProtocol/ (a run folder\'s layout), engine/model and src/shared only',
    'take the data to write as an argument',
  )],
  'src/main/recorder': [...MAIN_DEFAULTS, only(
    ['src/main/recorder', 'src/main/engine/model', 'src/shared', 'node:*'],
    'recorder/ records spans, counters and memory: it imports node, engine/model and src/shared only',
    'take what it records as arguments; the engine reports through the EngineProbe',
  )],
};

/**
 * Folders whose modules other folders import by name, with the reason; every other folder is
 * imported through its index.ts.
 */
export const IMPORTED_BY_MODULE = {
  'src/shared': 'the contract: each module (api, apiArgs, config, errors …) is a named part of it, and the preload and the page take only the parts they use',
};

/**
 * Named debt: imports that break the table today (a folder's index.ts re-exporting what its
 * importers may not import among them), each with the reason and its way out. An entry that no
 * longer matches an import is reported, so the list only shrinks.
 */
export const DEBT = [];
