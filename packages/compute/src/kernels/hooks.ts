// What a kernel may report while it runs and how it is told to stop. Kernels are pure and
// synchronous; the agent runs them in a worker thread and wires these hooks to its messages.

export interface KernelHooks {
  /** Called every 1–5 % of the work with the fraction done (0..1) and an optional short message. */
  onProgress?(fraction: number, message?: string): void;
  /** Polled between units of work (a row band, a doubling step, a sieve segment); true stops the kernel. */
  shouldStop?(): boolean;
}

/** Thrown by a kernel when `shouldStop` returned true; `name` is 'AbortError' like DOM aborts. */
export class KernelAbortedError extends Error {
  override readonly name = 'AbortError';
  constructor(message = 'the kernel was stopped before it finished') {
    super(message);
  }
}

/** Thrown when valid params still make a job impossible (e.g. a product that overflows float64); retrying cannot help. */
export class KernelInputError extends Error {
  override readonly name = 'KernelInputError';
}

/** Reports progress at most once per `step` of the fraction (and always the final 1), and polls for stops. */
export class ProgressTracker {
  private lastReported = -1;

  constructor(
    private readonly hooks: KernelHooks,
    private readonly step = 0.01,
  ) {}

  /** Throws KernelAbortedError when the caller asked to stop. */
  checkStop(): void {
    if (this.hooks.shouldStop?.() === true) throw new KernelAbortedError();
  }

  report(fraction: number, message?: string): void {
    const clamped = Math.min(1, Math.max(0, fraction));
    if (clamped < 1 && clamped - this.lastReported < this.step) return;
    if (clamped === this.lastReported) return;
    this.lastReported = clamped;
    this.hooks.onProgress?.(clamped, message);
  }
}
