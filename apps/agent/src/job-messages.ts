import type { JobUsage, Lease } from '@fabric/contract';

// Messages between the agent and the child process that runs one job's kernel.

export interface RunJobMessage {
  type: 'run';
  lease: Lease;
  maxCores: number;
  maxMemoryBytes: number;
}

export type KernelProcessMessage =
  | { type: 'progress'; fraction: number; message?: string }
  | { type: 'completed'; result: Record<string, unknown>; cpuMs: number; peakMemoryBytes: number }
  | { type: 'failed'; error: string; retryable: boolean; cpuMs: number; peakMemoryBytes: number };

export type JobOutcome =
  | { kind: 'completed'; result: Record<string, unknown>; usage: JobUsage }
  | { kind: 'failed'; error: string; retryable: boolean; usage: JobUsage }
  | { kind: 'aborted'; reason: string; usage: JobUsage };
