/**
 * The calls about the machine and the data rather than about one run: system info, presets, a data
 * file's summary and memory estimate, NWB scans and recipes, npz export, and the sweeps on disk.
 */
import type { DataInspection, PresetInfo, ProfilerApi, RunMemoryEstimate } from '../../../shared/api';
import type { ServiceInfo } from '../../../shared/serverState';
import { PRESET_INFO } from '../../data';
import { DatasetSummaryCache, exportSourceAsNpz, saveRecipeFor, scanDataView, withScale } from '../datasets';
import { estimateRunMemory, SystemInfoCache } from '../engineInfo';
import { runsFolderState } from '../liveFolder';
import type { ServiceCore } from '../serviceCore';
import { listSweeps, readSweep } from '../sweeps';
import { dataSource, runConfig } from '../validate';

type DataCalls = Pick<
  ProfilerApi,
  'getInfo' | 'listPresets' | 'inspectData' | 'estimateMemory' | 'pickDataFile' | 'scanData' | 'saveRecipe' | 'exportDataAsNpz' | 'listSweeps' | 'getSweep'
>;

export function dataCalls({ store, ready, spawn }: ServiceCore): DataCalls {
  const systemInfo = new SystemInfoCache(spawn);
  const summaries = new DatasetSummaryCache();
  return {
    // the runs folder rides along, so a page knows before a run is asked for whether one can start
    getInfo: async (): Promise<ServiceInfo> => {
      const [info, runsFolder] = await Promise.all([systemInfo.get(), runsFolderState(store.runsDir, ready)]);
      return { ...info, runsFolder };
    },
    listPresets: async (): Promise<PresetInfo[]> => PRESET_INFO.map((p) => ({ ...p })),
    inspectData: async (source): Promise<DataInspection> => withScale(await summaries.inspect(dataSource(source))),
    estimateMemory: async (config): Promise<RunMemoryEstimate> => estimateRunMemory(runConfig(config), summaries),

    pickDataFile: async () => null,
    scanData: (paths) => scanDataView(paths),
    saveRecipe: (recipe, dataPath) => saveRecipeFor(recipe, dataPath),
    exportDataAsNpz: (source, outPath, options) => exportSourceAsNpz(source, outPath, options),

    async listSweeps() {
      await ready;
      return listSweeps(store.runsDir);
    },
    async getSweep(id) {
      await ready;
      return readSweep(store.runsDir, id);
    },
  };
}
