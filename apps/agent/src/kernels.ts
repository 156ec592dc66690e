import {
  buildMatrixResult,
  combinePrimeCounts,
  commitMatrixProduct,
  computeFibonacci,
  computeMatrixProduct,
  countPrimesWithSpans,
  loadTensorFlow,
  materializeMatrix,
  parseFibonacciParams,
  parseMatrixParams,
  parseNeuralNetworkParams,
  parsePrimeSieveParams,
  splitPrimeSieveRange,
  trainNeuralNetwork,
  transposeMatrix,
  type ComputedJobType,
  type PrimeSpanCounts,
  type ProvenOutput,
  type ResolvedMatrixParams,
  type ResolvedPrimeSieveParams,
} from '@fabric/compute';
import type { Lease } from '@fabric/contract';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import {
  KERNEL_THREAD_MARKER,
  type KernelThreadMessage,
  type KernelThreadTask,
} from './kernel-thread.ts';

// Dispatch of a lease to its kernel in @fabric/compute. matrix_multiply and prime_sieve spread
// over up to --max-cores worker threads; fibonacci's big-integer doubling is one long chain of
// multiplications and neural_network_training's batches follow one another: each on one thread.

export class KernelUnavailableError extends Error {}

export interface KernelHooks {
  maxCores: number;
  onProgress: (fraction: number, message?: string) => void;
  /** Polled while the kernel runs; throws to stop it (memory limit), or returns true to stop. */
  shouldStop: () => boolean;
  /** The entry script that starts a kernel thread (the agent's own file). */
  threadEntry: string;
}

/** Below this much work a single thread finishes before threads would have started. */
const MIN_MATRIX_MULTIPLY_ADDS_FOR_THREADS = 64 ** 3;
const MIN_SIEVE_LIMIT_FOR_THREADS = 20_000_000;
/** Sieve ranges per thread: small enough pieces that threads finish together. */
const SIEVE_PIECES_PER_THREAD = 8;
const STOP_POLL_MS = 100;

/**
 * The kernel entry of every type with a kernel (the compute registry's types): the result, the
 * commitment sent with it, and the witness kept to open the server's challenge. matrix_multiply
 * and prime_sieve spread over threads when the work is large enough.
 */
const KERNEL_ENTRIES: Record<
  ComputedJobType,
  (lease: Lease, hooks: KernelHooks) => Promise<ProvenOutput>
> = {
  fibonacci: (lease, hooks) => {
    const { result, decimal } = computeFibonacci(parseFibonacciParams(lease.params), {
      onProgress: hooks.onProgress,
      shouldStop: hooks.shouldStop,
    });
    return Promise.resolve({ result, commitment: {}, witness: { kind: 'fibonacci', decimal } });
  },
  matrix_multiply: async (lease, hooks) => {
    const params = parseMatrixParams(lease.params);
    const work = params.rows * params.inner * params.cols;
    const { result, c } =
      hooks.maxCores === 1 || work < MIN_MATRIX_MULTIPLY_ADDS_FOR_THREADS
        ? computeMatrixProduct(
            params,
            { onProgress: hooks.onProgress, shouldStop: hooks.shouldStop },
            lease.challenge_seed,
          )
        : await runMatrixMultiplyInThreads(params, hooks, lease.challenge_seed);
    return { result, ...commitMatrixProduct(c, params.rows, params.cols) };
  },
  prime_sieve: async (lease, hooks) => {
    const params = parsePrimeSieveParams(lease.params);
    const { result, spanCounts } =
      hooks.maxCores === 1 || params.limit < MIN_SIEVE_LIMIT_FOR_THREADS
        ? countPrimesWithSpans(params, {
            onProgress: hooks.onProgress,
            shouldStop: hooks.shouldStop,
          })
        : await runPrimeSieveInThreads(params, hooks);
    return { result, commitment: { segment_counts: spanCounts }, witness: { kind: 'prime_sieve' } };
  },
  // TensorFlow.js on its pure-JavaScript cpu backend: one thread, one synchronous step per batch.
  // Loaded here, for this job only: TensorFlow.js costs a process about 50 MB.
  neural_network_training: async (lease, hooks) => {
    const params = parseNeuralNetworkParams(lease.params);
    await loadTensorFlow();
    const { result, weightsSha256 } = trainNeuralNetwork(params, {
      onProgress: hooks.onProgress,
      shouldStop: hooks.shouldStop,
    });
    return {
      result,
      commitment: { weights_sha256: weightsSha256 },
      witness: { kind: 'neural_network_training' },
    };
  },
};

/** Runs the lease's kernel (see KERNEL_ENTRIES); a type without one is this agent's limitation. */
export function runLeasedKernel(lease: Lease, hooks: KernelHooks): Promise<ProvenOutput> {
  const entry = Object.hasOwn(KERNEL_ENTRIES, lease.job_type)
    ? KERNEL_ENTRIES[lease.job_type as ComputedJobType]
    : undefined;
  if (!entry) {
    return Promise.reject(
      new KernelUnavailableError(`This agent has no kernel for ${lease.job_type} yet`),
    );
  }
  return entry(lease, hooks);
}

/**
 * A pool of worker threads working through a list of tasks, each thread taking the next task when
 * it finishes one. Progress is the sum of each task's fraction times its weight.
 */
async function runInThreads<T>(
  tasks: { task: KernelThreadTask; weight: number }[],
  hooks: KernelHooks,
  collect: (message: KernelThreadMessage, index: number) => T | undefined,
): Promise<T[]> {
  const threads = Math.min(hooks.maxCores, tasks.length);
  const totalWeight = tasks.reduce((sum, { weight }) => sum + weight, 0);
  const fractions = new Array<number>(tasks.length).fill(0);
  const results: T[] = [];
  const workers: Worker[] = [];
  let next = 0;

  try {
    await new Promise<void>((resolve, reject) => {
      let finished = 0;
      const poll = setInterval(() => {
        try {
          if (hooks.shouldStop()) reject(new Error('the kernel was stopped before it finished'));
        } catch (error) {
          reject(error instanceof Error ? error : new Error(String(error)));
        }
      }, STOP_POLL_MS);

      const assign = (worker: Worker) => {
        const index = next;
        next += 1;
        const entry = tasks[index];
        if (!entry) return;
        worker.removeAllListeners('message');
        worker.on('message', (message: KernelThreadMessage) => {
          if (message.type === 'progress') {
            fractions[index] = message.fraction;
            const done = tasks.reduce(
              (sum, { weight }, position) => sum + weight * (fractions[position] ?? 0),
              0,
            );
            hooks.onProgress(done / totalWeight);
            return;
          }
          if (message.type === 'error') {
            clearInterval(poll);
            reject(new Error(message.message));
            return;
          }
          fractions[index] = 1;
          const value = collect(message, index);
          if (value !== undefined) results.push(value);
          finished += 1;
          if (finished === tasks.length) {
            clearInterval(poll);
            resolve();
          } else {
            assign(worker);
          }
        });
        worker.postMessage(entry.task);
      };

      for (let thread = 0; thread < threads; thread += 1) {
        const worker = startKernelThread(hooks.threadEntry);
        worker.on('error', (error) => {
          clearInterval(poll);
          reject(error);
        });
        workers.push(worker);
        assign(worker);
      }
    });
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
  return results;
}

function startKernelThread(entry: string): Worker {
  const options = {
    workerData: { marker: KERNEL_THREAD_MARKER },
    // Heap limits are per process here (the kernel process has its own); V8 refuses them per worker.
    execArgv: process.execArgv.filter((flag) => !flag.startsWith('--max-old-space-size')),
  };
  if (!entry.endsWith('.ts')) return new Worker(entry, options);
  return new Worker(threadSourceForDevelopment(), { ...options, eval: true });
}

let developmentThreadSource: string | undefined;

/**
 * Running from source (tsx), worker threads do not get tsx's loader hooks in Node 20
 * (privatenumber/tsx#354), so the thread code is bundled once with esbuild, a dev dependency,
 * and run as an eval'd worker. The downloadable bundle never comes here: it is plain JavaScript.
 */
function threadSourceForDevelopment(): string {
  if (developmentThreadSource !== undefined) return developmentThreadSource;
  const esbuild = createRequire(import.meta.url)('esbuild') as typeof import('esbuild');
  const built = esbuild.buildSync({
    entryPoints: [fileURLToPath(new URL('./kernel-thread-main.ts', import.meta.url))],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    write: false,
    logLevel: 'silent',
  });
  developmentThreadSource = built.outputFiles[0]?.text ?? '';
  return developmentThreadSource;
}

function sharedFloat64(length: number): Float64Array {
  return new Float64Array(new SharedArrayBuffer(length * Float64Array.BYTES_PER_ELEMENT));
}

async function runMatrixMultiplyInThreads(
  params: ResolvedMatrixParams,
  hooks: KernelHooks,
  challengeSeed: number,
) {
  const { rows, inner, cols } = params;
  const dims = { rows, inner, cols };
  const a = materializeMatrix(params, 'a', sharedFloat64(rows * inner));
  const b = materializeMatrix(params, 'b', sharedFloat64(inner * cols));
  const bTransposed = sharedFloat64(inner * cols);
  bTransposed.set(transposeMatrix(b, inner, cols));
  const c = sharedFloat64(rows * cols);

  // Bands of whole 4-row blocks (the kernel's register tile), a few per thread for balance.
  const bands = Math.min(Math.ceil(rows / 4), hooks.maxCores * 4);
  const rowsPerBand = 4 * Math.ceil(rows / 4 / bands);
  const tasks: { task: KernelThreadTask; weight: number }[] = [];
  for (let rowStart = 0; rowStart < rows; rowStart += rowsPerBand) {
    const rowEnd = Math.min(rows, rowStart + rowsPerBand);
    tasks.push({
      task: { kind: 'matrix-band', dims, a, b, bTransposed, c, rowStart, rowEnd },
      weight: rowEnd - rowStart,
    });
  }
  await runInThreads(tasks, hooks, () => true);
  // A copy off the SharedArrayBuffer: the witness travels to the agent process, which cannot
  // receive shared memory.
  return { result: buildMatrixResult(dims, { a, b, c }, challengeSeed), c: c.slice() };
}

async function runPrimeSieveInThreads(params: ResolvedPrimeSieveParams, hooks: KernelHooks) {
  const { limit } = params;
  const ranges = splitPrimeSieveRange(limit, hooks.maxCores * SIEVE_PIECES_PER_THREAD);
  const tasks = ranges.map(([lo, hi]) => ({
    task: { kind: 'sieve-range' as const, lo, hi, limit },
    weight: hi - lo,
  }));
  const parts = await runInThreads<PrimeSpanCounts>(tasks, hooks, (message) =>
    message.type === 'sieve-done' ? message.range : undefined,
  );
  // Threads finish in any order; the commitment lists the spans in order.
  parts.sort((left, right) => left.firstSpan - right.firstSpan);
  return {
    result: { limit, ...combinePrimeCounts(parts) },
    spanCounts: parts.flatMap((part) => part.spanCounts),
  };
}
