import { SUBMIT_ESTIMATE } from './constants.ts';
import { JOB_TYPES, type JobType } from './job-types/index.ts';

// The published price list. Amounts are integer micro-dollars (1 USD = 1,000,000), so metering
// below a cent is exact; screens round to cents.

export interface JobRate {
  /** Charged once for a job that completes. */
  perJobMicros: number;
  /** Charged per millisecond of CPU time the agent measured for the attempt that counts. */
  perCpuMillisecondMicros: number;
}

/** $0.01 per completed job plus $0.002 per CPU-second ($7.20 per CPU-hour), for every type. */
const STANDARD_RATE: JobRate = { perJobMicros: 10_000, perCpuMillisecondMicros: 2 };

export const JOB_RATES: Record<JobType, JobRate> = Object.fromEntries(
  JOB_TYPES.map((type) => [type, STANDARD_RATE]),
) as Record<JobType, JobRate>;

/** The hold placed on an enterprise's credits at submit: the most a job can ever cost. */
export const JOB_HOLD_MICROS = Math.round(
  SUBMIT_ESTIMATE.baseCostUsd * SUBMIT_ESTIMATE.multiplier * 1_000_000,
);

/** The node's owner receives this share of every charge (basis points); the platform keeps the rest. */
export const PROVIDER_SHARE_BASIS_POINTS = 8000;

/** Credits below this trigger the low-credit alert (when the enterprise has it switched on). */
export const LOW_CREDIT_THRESHOLD_MICROS = 10_000_000;

/** What a job costs for the CPU time measured, capped at its hold. */
export function usageCostMicros(
  jobType: JobType,
  cpuMilliseconds: number,
  { includesJobFee }: { includesJobFee: boolean },
): number {
  const rate = JOB_RATES[jobType];
  const cost =
    (includesJobFee ? rate.perJobMicros : 0) +
    Math.max(0, Math.round(cpuMilliseconds)) * rate.perCpuMillisecondMicros;
  return Math.min(cost, JOB_HOLD_MICROS);
}

/** The provider's share of a charge, rounded down to the micro-dollar; the platform keeps the rest. */
export function providerShareMicros(chargeMicros: number): number {
  return Math.floor((chargeMicros * PROVIDER_SHARE_BASIS_POINTS) / 10_000);
}
