/**
 * A float32 .npy of known shape written block of rows by block of rows, for likelihoods too long to
 * hold at once: the header first, then each block as it comes, into `<file>.partial`, renamed to
 * the file once complete. A run that fails leaves the partial file with the rows written so far.
 */
import { mkdir, open, rename, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { npyHeader } from '../../data';
import { PARTIAL_SUFFIX } from '../../engineProtocol';
import { writeFully } from './rowFiles';

export class LikelihoodStream {
  private constructor(
    readonly file: string,
    readonly partialFile: string,
    private readonly handle: FileHandle,
  ) {}

  /** Creates `<file>.partial` holding the header of a (rows × cols) float32 array. */
  static async open(file: string, shape: [number, number]): Promise<LikelihoodStream> {
    await mkdir(dirname(file), { recursive: true });
    const partialFile = `${file}${PARTIAL_SUFFIX}`;
    const handle = await open(partialFile, 'w');
    try {
      await writeFully(handle, npyHeader('<f4', shape), null);
    } catch (e) {
      await handle.close();
      throw e;
    }
    return new LikelihoodStream(file, partialFile, handle);
  }

  /** Appends whole rows, row-major, as float32. */
  async append(values: ArrayLike<number>): Promise<void> {
    const f32 = Float32Array.from(values);
    await writeFully(this.handle, new Uint8Array(f32.buffer, f32.byteOffset, f32.byteLength), null);
  }

  /** Every row is in: the file takes its final name. */
  async finish(): Promise<void> {
    await this.handle.close();
    await rename(this.partialFile, this.file);
  }

  /** The run stopped: the partial file keeps the rows written so far. */
  async abandon(): Promise<void> {
    await this.handle.close().catch(() => undefined);
  }
}
