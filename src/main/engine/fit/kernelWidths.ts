/** Kernel widths as the dataset gives them: one σ for every dimension, or one per dimension. */
import { AppError } from '../../../shared/errors';

/** A scalar σ repeated per dimension, or a per-dimension σ checked against the dimension. */
export function stdVector(std: number | number[], dims: number, what: string, electrode?: string): number[] {
  if (typeof std === 'number') return new Array<number>(dims).fill(std);
  if (std.length === 1 && dims !== 1) return new Array<number>(dims).fill(std[0]!);
  if (std.length !== dims) {
    const where = electrode === undefined ? '' : ` on electrode '${electrode}'`;
    throw new AppError(
      'BAD_ARGUMENT',
      `${what} has ${std.length} entries but${where} there are ${dims} dimensions; give a scalar or one value per dimension`,
      { key: what, electrode },
    );
  }
  return std.slice();
}
