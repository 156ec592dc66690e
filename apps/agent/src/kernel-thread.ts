import {
  basePrimesFor,
  countPrimesBySpan,
  multiplyBand,
  type MatrixDimensions,
  type PrimeSpanCounts,
} from '@fabric/compute';
import { parentPort, workerData } from 'node:worker_threads';

// One worker thread of a parallel kernel (see kernels.ts): a band of matrix rows or a run of
// sieve ranges. Matrices come as SharedArrayBuffers, so the threads write C in place.

export const KERNEL_THREAD_MARKER = 'fabric-kernel-thread';

export type KernelThreadTask =
  | {
      kind: 'matrix-band';
      dims: MatrixDimensions;
      a: Float64Array;
      b: Float64Array;
      bTransposed: Float64Array;
      c: Float64Array;
      rowStart: number;
      rowEnd: number;
    }
  | { kind: 'sieve-range'; lo: number; hi: number; limit: number };

export type KernelThreadMessage =
  | { type: 'progress'; fraction: number }
  | { type: 'sieve-done'; range: PrimeSpanCounts }
  | { type: 'band-done' }
  | { type: 'error'; message: string };

export interface KernelThreadData {
  marker: typeof KERNEL_THREAD_MARKER;
}

export function isKernelThread(data: unknown): data is KernelThreadData {
  return (
    typeof data === 'object' &&
    data !== null &&
    (data as { marker?: unknown }).marker === KERNEL_THREAD_MARKER
  );
}

function post(message: KernelThreadMessage) {
  parentPort?.postMessage(message);
}

function runTask(task: KernelThreadTask) {
  const hooks = { onProgress: (fraction: number) => post({ type: 'progress', fraction }) };
  if (task.kind === 'matrix-band') {
    multiplyBand(task.a, task.b, task.dims, task.rowStart, task.rowEnd, {
      c: task.c,
      bTransposed: task.bTransposed,
      hooks,
    });
    post({ type: 'band-done' });
  } else {
    const range = countPrimesBySpan(task.lo, task.hi, basePrimesFor(task.limit), hooks);
    post({ type: 'sieve-done', range });
  }
}

/** Entry of a kernel worker thread: runs each task it is sent until the pool terminates it. */
export function runKernelThread(): void {
  if (!isKernelThread(workerData)) return;
  parentPort?.on('message', (task: KernelThreadTask) => {
    try {
      runTask(task);
    } catch (error) {
      post({ type: 'error', message: error instanceof Error ? error.message : String(error) });
    }
  });
}
