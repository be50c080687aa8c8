/**
 * Results left on the device until the host needs them, read together: on WebGPU each read is a
 * round trip that waits for the device to finish, so a fit that read each electrode's columns as it
 * went paid one per electrode. A PendingRead holds its tensors and how the host finishes them;
 * readAll joins every pending tensor on the device and reads them in one readback.
 */
import * as tf from '@tensorflow/tfjs-core';

export interface PendingRead<T> {
  /** float32 tensors, freed once read */
  tensors: tf.Tensor[];
  /** the result from the tensors' values, in order */
  finish(values: Float32Array[]): T;
}

export function pendingRead<T>(tensors: tf.Tensor[], finish: (values: Float32Array[]) => T): PendingRead<T> {
  return { tensors, finish };
}

/** A result the host already has. */
export function readyRead<T>(value: T): PendingRead<T> {
  return { tensors: [], finish: () => value };
}

/** Several pending reads as one, their results in order. */
export function allPending<T>(items: readonly PendingRead<T>[]): PendingRead<T[]> {
  return pendingRead(items.flatMap((p) => p.tensors), (values) => {
    let at = 0;
    return items.map((p) => p.finish(values.slice(at, (at += p.tensors.length))));
  });
}

/** Frees what the reads hold, without reading (a fit that failed). */
export function discardAll(items: readonly PendingRead<unknown>[]): void {
  tf.dispose(items.flatMap((p) => p.tensors));
}

/** Every pending read finished, its tensors read in one readback and freed. */
export async function readAll<T>(items: readonly PendingRead<T>[]): Promise<T[]> {
  const tensors = items.flatMap((p) => p.tensors);
  const sizes = tensors.map((t) => t.size);
  try {
    let values: Float32Array = new Float32Array(0);
    if (sizes.some((n) => n > 0)) {
      const joined = tf.tidy(() => (tensors.length === 1 ? tf.reshape(tensors[0]!, [-1]) : tf.concat(tensors.map((t) => tf.reshape(t, [-1])))));
      try {
        values = (await joined.data()) as Float32Array;
      } finally {
        joined.dispose();
      }
    }
    let at = 0;
    const split = sizes.map((n) => values.subarray(at, (at += n)));
    let next = 0;
    return items.map((p) => p.finish(split.slice(next, (next += p.tensors.length))));
  } finally {
    tf.dispose(tensors);
  }
}

/** One pending read, now. */
export async function readNow<T>(item: PendingRead<T>): Promise<T> {
  return (await readAll([item]))[0]!;
}
