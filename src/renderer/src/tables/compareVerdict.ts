/**
 * The verdict line at the top of a comparison: its words and its tone. A "no regression" between
 * runs measured on a busy machine is not shown in green: the load may hide a regression as well as
 * make one, so the line says which run was busy and reads as a caveat. Pure.
 */
import type { Comparison } from '../../../shared/api';

export type VerdictTone = 'bad' | 'warn' | 'good';

export interface CompareVerdict {
  tone: VerdictTone;
  /** "Regression", "Inconclusive (machine busy)", "No regression, but B was measured on a busy machine" */
  title: string;
}

function busyWords(sides: readonly ('A' | 'B')[]): string {
  return sides.length > 1 ? 'A and B were' : `${sides[0]} was`;
}

export function compareVerdict(c: Pick<Comparison, 'regressed' | 'inconclusive' | 'busy'>): CompareVerdict {
  if (c.regressed) return { tone: 'bad', title: 'Regression' };
  if (c.inconclusive) return { tone: 'warn', title: 'Inconclusive (machine busy)' };
  if (c.busy && c.busy.length > 0) return { tone: 'warn', title: `No regression, but ${busyWords(c.busy)} measured on a busy machine` };
  return { tone: 'good', title: 'No regression' };
}
