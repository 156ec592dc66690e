import {
  billableCpuMs,
  type BillingBasis,
  ERROR_CODES,
  JOB_HOLD_MICROS,
  LOW_CREDIT_THRESHOLD_MICROS,
  providerShareMicros,
  jobTypeDefinition,
  SHORT_ID_LENGTH,
  usageCostMicros,
} from '@fabric/contract';
import type { JobRow } from '../db/schema.ts';
import { HttpError } from '../lib/http-errors.ts';
import { formatMicroDollars } from '../lib/money.ts';
import type { Repositories } from '../repositories/index.ts';
import { accountKey, InsufficientFundsError, postLedgerTransaction } from './ledger.ts';
import { notify } from './notify.ts';

// Metered billing of jobs, always inside the database transaction that changes the job:
// - submit: a hold of JOB_HOLD_MICROS moves from the enterprise's credits to its holds;
// - completed: the usage cost (per-type rate × billable CPU time, plus the per-job fee, never
//   more than the hold) is charged; the provider's share goes to the owner of the node that
//   produced the accepted result (pending until settled), the rest to the platform, and what is
//   left of the hold returns to the credits. The billable CPU time of a verified result is the work
//   its params need (the cost model's reference CPU time, contract/cost-model.ts), bounded by what
//   the server saw (lease start to result × the cores the job may use). The usage a device reports
//   is recorded and shown, never billed: inflating it earns nothing;
// - cancelled while running: the attempt's time so far on one core, never more than the whole
//   job's work, without the per-job fee; cancelled while queued: nothing;
// - failed: nothing when the network or a device failed (expired leases, refused results, device
//   errors, a device saying the job cannot run); the attempt's time on one core (as for a cancel)
//   only when the same failure repeated on a node of another provider (see job-lifecycle.ts).
// Attempts that ended early on other nodes are never charged.

function jobLabel(job: Pick<JobRow, 'id' | 'jobType'>): string {
  const name = jobTypeDefinition(job.jobType)?.displayName ?? job.jobType;
  return `${name} job ${job.id.slice(0, SHORT_ID_LENGTH)}`;
}

export function insufficientCreditsMessage(availableMicros: number): string {
  return (
    `Not enough credits: each job holds $${formatMicroDollars(JOB_HOLD_MICROS)} until it ends, ` +
    `and your available credits are $${formatMicroDollars(availableMicros)}. ` +
    'Add credits on the Billing page.'
  );
}

/** Places the job's hold; 402 naming the shortfall when the credits do not cover it. */
export async function placeJobHold(
  repositories: Repositories,
  job: JobRow,
  now: Date,
): Promise<void> {
  let posted;
  try {
    posted = await postLedgerTransaction(repositories, {
      kind: 'job_hold',
      description: `Hold for ${jobLabel(job)}`,
      jobId: job.id,
      idempotencyKey: `job:${job.id}:hold`,
      createdAt: now,
      legs: [
        { kind: 'enterprise_credits', userId: job.ownerId, amountMicros: -JOB_HOLD_MICROS },
        { kind: 'enterprise_holds', userId: job.ownerId, amountMicros: JOB_HOLD_MICROS },
      ],
    });
  } catch (error) {
    if (error instanceof InsufficientFundsError) {
      throw new HttpError(
        402,
        insufficientCreditsMessage(error.availableMicros),
        ERROR_CODES.insufficientFunds,
      );
    }
    throw error;
  }
  // Read under the account's lock: of two submits at once, exactly the one that crosses notifies.
  const after = posted?.balancesAfter.get(
    accountKey({ kind: 'enterprise_credits', userId: job.ownerId }),
  );
  const isCrossing =
    after !== undefined &&
    after < LOW_CREDIT_THRESHOLD_MICROS &&
    after + JOB_HOLD_MICROS >= LOW_CREDIT_THRESHOLD_MICROS;
  if (after !== undefined && isCrossing) {
    await notify(repositories, {
      userId: job.ownerId,
      kind: 'credits_low',
      title: 'Credits are running low',
      body: `You have $${formatMicroDollars(after)} of credits left, enough for ${Math.floor(after / JOB_HOLD_MICROS)} more jobs. Add credits to keep jobs running.`,
      link: '/billing',
      now,
    });
  }
}

/** What a job's end costs: billable CPU time on the node that is paid. */
export interface MeteredCharge {
  nodeId: string;
  cpuMilliseconds: number;
  /** The per-job fee applies to completed jobs only. */
  includesJobFee: boolean;
}
/** A job's end that costs nothing is `null`. */
export type JobCharge = MeteredCharge | null;

/**
 * The charge for an attempt on `attempt.nodeId` that ran from `attempt.startedAt` to `endedAt` on
 * the server's clock, on the given basis (see billableCpuMs).
 */
export async function meteredCharge(
  repositories: Repositories,
  job: Pick<JobRow, 'jobType' | 'params'>,
  attempt: { nodeId: string; startedAt: Date },
  endedAt: Date,
  basis: BillingBasis,
): Promise<MeteredCharge> {
  const node = await repositories.nodes.findAnyById(attempt.nodeId);
  return {
    nodeId: attempt.nodeId,
    cpuMilliseconds: billableCpuMs({
      jobType: job.jobType,
      params: job.params,
      basis,
      observedWallMs: endedAt.getTime() - attempt.startedAt.getTime(),
      nodeCores: node?.hardwareInfo?.cores ?? 1,
    }),
    // The per-job fee is for a result.
    includesJobFee: basis === 'verified_result',
  };
}

/**
 * Ends the job's hold: charges `charge` (capped at the hold), pays the node's owner their share,
 * returns the rest of the hold, records the job's actual cost and tells the people concerned.
 * Call once the job is completed, failed or cancelled, in the same transaction. A job submitted
 * before billing existed has no hold and costs nothing.
 */
export async function settleJob(
  repositories: Repositories,
  job: JobRow,
  charge: JobCharge,
  now: Date,
  /** A node of another provider that replicated the result: its owner gets half the share. */
  coEarner: { nodeId: string } | null = null,
): Promise<void> {
  const hold = await repositories.ledger.findTransactionByKey(`job:${job.id}:hold`);
  // The hold as it was placed (the price cap of its day, whatever the price list says now).
  const holdMicros = hold
    ? await repositories.ledger.amountMovedInto(hold.id, 'enterprise_holds')
    : 0;
  const node = charge ? await repositories.nodes.findAnyById(charge.nodeId) : undefined;
  const costMicros =
    charge && node && hold
      ? Math.min(
          holdMicros,
          usageCostMicros(job.jobType, charge.cpuMilliseconds, {
            includesJobFee: charge.includesJobFee,
          }),
        )
      : 0;
  const shareMicros = providerShareMicros(costMicros);
  const coNode =
    coEarner && node ? await repositories.nodes.findAnyById(coEarner.nodeId) : undefined;
  // The enterprise pays for one run; two agreeing providers split its share, the odd micro-dollar
  // to the first.
  const coShareMicros = coNode ? Math.floor(shareMicros / 2) : 0;

  if (hold) {
    await postLedgerTransaction(repositories, {
      kind: costMicros > 0 ? 'job_charge' : 'hold_release',
      description: jobLabel(job),
      jobId: job.id,
      nodeId: costMicros > 0 && node ? node.id : null,
      idempotencyKey: `job:${job.id}:settle`,
      createdAt: now,
      legs: [
        { kind: 'enterprise_holds', userId: job.ownerId, amountMicros: -holdMicros },
        { kind: 'enterprise_credits', userId: job.ownerId, amountMicros: holdMicros - costMicros },
        ...(node
          ? [
              {
                kind: 'provider_pending' as const,
                userId: node.ownerId,
                amountMicros: shareMicros - coShareMicros,
              },
            ]
          : []),
        {
          kind: 'platform_fees',
          userId: null,
          amountMicros: costMicros - shareMicros + coShareMicros,
        },
      ],
    });
    if (coNode && coShareMicros > 0) {
      // Its own posting, so the replicating node's earnings show against its attempt.
      await postLedgerTransaction(repositories, {
        kind: 'job_charge',
        description: `${jobLabel(job)} (replicated)`,
        jobId: job.id,
        nodeId: coNode.id,
        idempotencyKey: `job:${job.id}:replica`,
        createdAt: now,
        legs: [
          { kind: 'platform_fees', userId: null, amountMicros: -coShareMicros },
          { kind: 'provider_pending', userId: coNode.ownerId, amountMicros: coShareMicros },
        ],
      });
    }
  }
  await repositories.jobs.update(job.id, {
    actualCostMicros: costMicros,
    billedCpuMs: costMicros > 0 && charge ? charge.cpuMilliseconds : null,
  });
  await announceJobEnd(repositories, job, node?.ownerId ?? null, shareMicros, now);
}

async function announceJobEnd(
  repositories: Repositories,
  job: JobRow,
  providerId: string | null,
  shareMicros: number,
  now: Date,
): Promise<void> {
  const ended = await repositories.jobs.findById(job.id);
  const status = ended?.status ?? job.status;
  if (status === 'completed') {
    await notify(repositories, {
      userId: job.ownerId,
      kind: 'job_completed',
      title: `${jobLabel(job)} completed`,
      body: 'Its verified result is ready.',
      link: `/jobs/${job.id}`,
      dedupeKey: `job-end:${job.id}`,
      now,
    });
    if (providerId) {
      await notify(repositories, {
        userId: providerId,
        kind: 'job_completed',
        title: `Your node completed ${jobLabel(job)}`,
        body: `You earned $${formatMicroDollars(shareMicros)}, paid out after the month's settlement.`,
        link: job.assignedNodeId ? `/nodes/${job.assignedNodeId}` : null,
        dedupeKey: `job-end:${job.id}:provider`,
        now,
      });
    }
  } else if (status === 'failed') {
    await notify(repositories, {
      userId: job.ownerId,
      kind: 'job_failed',
      title: `${jobLabel(job)} failed`,
      body: ended?.error ?? 'The job could not be completed.',
      link: `/jobs/${job.id}`,
      dedupeKey: `job-end:${job.id}`,
      now,
    });
  }
}
