/**
 * The scan the mapping step starts from: every file's candidates, plus the automatic recipe when
 * the choice is unambiguous, or findings saying what is missing or ambiguous. Reads only what the
 * lazy scan reads (shapes, attributes, small index arrays), never the spikes themselves.
 */
import { basename } from 'node:path';
import type { ValidationFinding } from '../../../shared/api';
import type { NwbRecipe, NwbScan } from '../../../shared/nwb';
import { ValidationFindings } from '../validation';
import { autoRecipe } from './autoRecipe';
import { scanNwb } from './scan';

export interface NwbMappingScan {
  scans: NwbScan[];
  /** the automatic recipe, or null when a choice is missing or ambiguous */
  auto: NwbRecipe | null;
  findings: ValidationFinding[];
}

/** Scans the files of one import and tries the automatic mapping. Throws AppError when a file cannot be opened. */
export async function scanForMapping(paths: string[]): Promise<NwbMappingScan> {
  const scans = await scanNwb(paths);
  const f = new ValidationFindings(basename(paths[0] ?? 'nwb'));
  for (const s of scans) for (const p of s.problems) f.warn('W090', `${s.file}: skipped while scanning: ${p}`);
  const auto = autoRecipe(scans, f);
  return { scans, auto, findings: f.items };
}
