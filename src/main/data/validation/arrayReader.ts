/**
 * Reads members of an open .npz for validation: each member at most once, read failures become
 * findings (E060, E061, E090) instead of stopping the load, and layout notes (I062, I063) are recorded.
 */
import { isAppError } from '../../../shared/errors';
import { ValidationFindings, shapeText } from './validationFindings';
import { npyAsFloat64, type NpyArray, type NpzFile } from '../npz';

export interface NumericArray {
  key: string;
  shape: number[];
  data: Float64Array;
  /** the dtype as written, e.g. '<f4' */
  descr: string;
}

export class ArrayReader {
  private readonly cache = new Map<string, NpyArray | null>();

  constructor(readonly npz: NpzFile, readonly findings: ValidationFindings) {}

  get keys(): string[] {
    return this.npz.keys;
  }

  has(key: string): boolean {
    return this.npz.has(key);
  }

  /** the raw array, or null when absent or unreadable (a finding says why) */
  async raw(key: string, electrode?: string): Promise<NpyArray | null> {
    if (this.cache.has(key)) return this.cache.get(key)!;
    let result: NpyArray | null = null;
    if (this.npz.has(key)) {
      try {
        result = await this.npz.read(key);
        if (result.fortranOrder && result.shape.length > 1) {
          this.findings.info('I062', `'${key}' is stored in Fortran order; transposed on load.`, { key, electrode });
        }
        if (result.bigEndian) {
          this.findings.info('I063', `'${key}' is big-endian (${result.dtype.descr}); byte-swapped on load.`, { key, electrode });
        }
      } catch (e) {
        if (!isAppError(e)) throw e;
        this.findings.fromError(e, { key, electrode });
      }
    }
    this.cache.set(key, result);
    return result;
  }

  /** a numeric (float or int) array as float64; strings and bools are reported as E061 */
  async numeric(key: string, electrode?: string, allowBool = false): Promise<NumericArray | null> {
    const a = await this.raw(key, electrode);
    if (!a) return null;
    const isNumber = a.dtype.kind === 'float' || a.dtype.kind === 'int' || a.dtype.kind === 'uint';
    const data = npyAsFloat64(a);
    if (!data || (!isNumber && !(allowBool && a.dtype.kind === 'bool'))) {
      this.findings.error('E061', `'${key}' has dtype ${a.dtype.descr} (${a.dtype.kind}) with shape ${shapeText(a.shape)}; expected float32/float64.`, { key, electrode });
      return null;
    }
    return { key, shape: a.shape, data, descr: a.dtype.descr };
  }

  /** a string array (for names and labels), or null when absent, unreadable or not strings */
  async strings(key: string): Promise<string[] | null> {
    const a = await this.raw(key);
    if (!a) return null;
    return Array.isArray(a.data) ? a.data : null;
  }
}

/** "position, spike_times_0, …" with long lists shortened so a message stays readable */
export function listKeys(keys: readonly string[], max = 12): string {
  if (keys.length === 0) return '(no arrays)';
  if (keys.length <= max) return keys.join(', ');
  return `${keys.slice(0, max).join(', ')} … (${keys.length - max} more)`;
}
