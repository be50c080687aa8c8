/**
 * Reads the spike trains of a Units-like table, one unit at a time (ragged spike_times split by
 * spike_times_index, whatever its integer type). Sorted units carry no marks, so this is what an
 * NWB file without marks still offers: counts, spans and rates for the mapping step.
 */
import { AppError } from '../../../shared/errors';
import { childPath, getDataset, openH5 } from './h5';
import { readRows } from './h5read';
import { scanOpened } from './scan';

export interface UnitSpikes {
  id: number;
  /** the electrode group's name, when the table references one */
  group: string | null;
  times: Float64Array;
}

export async function readUnits(path: string, table = '/units'): Promise<UnitSpikes[]> {
  const h = await openH5(path);
  try {
    const t = scanOpened(h).spikeTables.find((c) => c.path === table);
    const timesDs = getDataset(h, childPath(table, 'spike_times'));
    if (!t || !timesDs) {
      throw new AppError('E001', `${h.file}: no Units-like table '${table}' (spike_times + spike_times_index) found.`, { file: h.file, key: table });
    }
    let start = 0;
    return t.spikesPerUnit.map((n, u) => {
      const times = readRows(h, timesDs, start, start + n);
      start += n;
      return { id: t.unitIds[u]!, group: t.unitGroups[u] ?? null, times };
    });
  } finally {
    h.close();
  }
}
