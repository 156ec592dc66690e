import type { ProofWitness } from '@fabric/compute';
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
  | {
      type: 'completed';
      result: Record<string, unknown>;
      /** Sent with the result; `witness` stays here to open the server's challenge. */
      commitment: Record<string, unknown>;
      witness: ProofWitness;
      cpuMs: number;
      peakMemoryBytes: number;
    }
  | { type: 'failed'; error: string; retryable: boolean; cpuMs: number; peakMemoryBytes: number };

export type JobOutcome =
  | {
      kind: 'completed';
      result: Record<string, unknown>;
      commitment: Record<string, unknown>;
      witness: ProofWitness;
      usage: JobUsage;
    }
  | { kind: 'failed'; error: string; retryable: boolean; usage: JobUsage }
  | { kind: 'aborted'; reason: string; usage: JobUsage };
