/**
 * Inflates a zip member's raw deflate stream with a hard cap on what comes out. zlib runs on the
 * I/O pool and hands output back in pieces of at most OUT_PIECE_BYTES, so a stream that inflates past
 * its member's declared size is stopped within one piece of the cap instead of after gigabytes.
 */
import { createInflateRaw } from 'node:zlib';

/** compressed bytes read from the file per step */
const IN_STEP_BYTES = 1 << 20;
/** the most zlib returns in one piece: the overshoot past a cap before it is noticed */
const OUT_PIECE_BYTES = 1 << 20;

export interface InflateFailures {
  /** the stream yields more than `limit` bytes */
  tooMuch(limit: number): Error;
  /** zlib refuses the stream */
  corrupt(message: string): Error;
}

/** Reads `length` compressed bytes through `read`, a step at a time. */
async function* compressedSteps(read: (offset: number, length: number) => Promise<Uint8Array>, length: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < length; at += IN_STEP_BYTES) yield await read(at, Math.min(IN_STEP_BYTES, length - at));
}

/**
 * The inflated bytes of a raw deflate stream in order. More than `limit` bytes in all is refused as
 * soon as the piece that passes it arrives; the inflater is destroyed when the caller stops early.
 */
export async function* inflateBounded(
  read: (offset: number, length: number) => Promise<Uint8Array>,
  compressedLength: number,
  limit: number,
  fail: InflateFailures,
): AsyncGenerator<Uint8Array> {
  const inflater = createInflateRaw({ chunkSize: OUT_PIECE_BYTES });
  const input = compressedSteps(read, compressedLength);
  // Fed by hand rather than piped, so that a failed read or an early stop tears down both ends.
  const feed = (async () => {
    for await (const step of input) {
      if (inflater.destroyed) return;
      if (!inflater.write(step)) await new Promise<void>((resolve) => inflater.once('drain', resolve).once('close', resolve));
    }
    if (!inflater.destroyed) inflater.end();
  })().catch((e: unknown) => inflater.destroy(e as Error));
  let total = 0;
  try {
    for await (const piece of inflater as AsyncIterable<Buffer>) {
      total += piece.length;
      if (total > limit) throw fail.tooMuch(limit);
      yield piece;
    }
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && code.startsWith('Z_')) throw fail.corrupt((e as Error).message);
    throw e;
  } finally {
    inflater.destroy();
    await input.return(undefined);
    await feed;
  }
}
