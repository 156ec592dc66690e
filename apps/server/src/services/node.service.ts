import type {
  MessageResponse,
  Node,
  NodeEarningsResponse,
  NodeJobsResponse,
  NodeListResponse,
} from '@fabric/contract';
import type { Clock } from '../lib/clock.ts';
import { notFound } from '../lib/http-errors.ts';
import { formatMicroDollars } from '../lib/money.ts';
import type { Repositories } from '../repositories/index.ts';
import type { NodeWithCurrentJob } from '../repositories/node.repository.ts';
import { endUnsuccessfulAttempt } from './job-lifecycle.ts';
import { usageOf } from './job-view.ts';
import type { JobWakeups } from './job-wakeups.service.ts';
import { presentNode, presentNodes } from './node-view.ts';

export const NODE_NOT_FOUND_MESSAGE = 'Node not found';
const DEFAULT_RECENT_ATTEMPTS = 20;

/** A provider's calls on their nodes. Another provider's node, or an unenrolled one, is not found. */
export function createNodeService(options: {
  repositories: Repositories;
  clock: Clock;
  wakeups: JobWakeups;
}) {
  const { repositories, clock, wakeups } = options;

  async function findOwnNode(ownerId: string, nodeId: string): Promise<NodeWithCurrentJob> {
    const node = await repositories.nodes.findEnrolledById(nodeId);
    if (!node || node.ownerId !== ownerId) throw notFound(NODE_NOT_FOUND_MESSAGE);
    return node;
  }

  async function setPaused(ownerId: string, nodeId: string, isPaused: boolean): Promise<Node> {
    const node = await findOwnNode(ownerId, nodeId);
    const now = clock();
    if ((node.pausedAt !== null) !== isPaused) {
      await repositories.nodes.update(node.id, { pausedAt: isPaused ? now : null, updatedAt: now });
    }
    return presentNode(repositories, await findOwnNode(ownerId, nodeId), now);
  }

  return {
    async list(ownerId: string): Promise<NodeListResponse> {
      const now = clock();
      const nodes = await repositories.nodes.listEnrolledOfOwner(ownerId);
      return { nodes: await presentNodes(repositories, nodes, now) };
    },

    async get(ownerId: string, nodeId: string): Promise<Node> {
      return presentNode(repositories, await findOwnNode(ownerId, nodeId), clock());
    },

    async earnings(ownerId: string, nodeId: string): Promise<NodeEarningsResponse> {
      const node = await findOwnNode(ownerId, nodeId);
      const earnings = await repositories.earnings.ofNode(node.id);
      return {
        node_id: node.id,
        total: formatMicroDollars(earnings.totalMicros),
        by_day: earnings.byDay.map((day) => ({
          date: day.date,
          amount: formatMicroDollars(day.amountMicros),
        })),
        by_job: earnings.byJob.map((job) => ({
          job_id: job.jobId,
          amount: formatMicroDollars(job.amountMicros),
          finished_at: job.finishedAt.toISOString(),
        })),
      };
    },

    async recentAttempts(
      ownerId: string,
      nodeId: string,
      limit = DEFAULT_RECENT_ATTEMPTS,
    ): Promise<NodeJobsResponse> {
      const node = await findOwnNode(ownerId, nodeId);
      const attempts = await repositories.jobAttempts.listRecentOfNode(node.id, limit);
      return {
        attempts: attempts.map((attempt) => ({
          job_id: attempt.jobId,
          job_type: attempt.jobType,
          attempt_number: attempt.attemptNumber,
          started_at: attempt.startedAt.toISOString(),
          ended_at: attempt.endedAt?.toISOString() ?? null,
          outcome: attempt.outcome,
          error: attempt.error,
          usage: usageOf(attempt),
          earned: formatMicroDollars(attempt.earnedMicros),
        })),
      };
    },

    /** A paused node gets no new job; the job it runs now carries on to the end. */
    pause: (ownerId: string, nodeId: string) => setPaused(ownerId, nodeId, true),

    async resume(ownerId: string, nodeId: string): Promise<Node> {
      const node = await setPaused(ownerId, nodeId, false);
      // The node may be waiting in a lease request: let it look at the queue again.
      wakeups.announce();
      return node;
    },

    /**
     * Revokes the device token and hides the node; the job it was running goes back to the queue
     * without counting the attempt (the node did not fail it). The row stays for the jobs,
     * attempts and earnings that refer to it.
     */
    async unenroll(ownerId: string, nodeId: string): Promise<MessageResponse> {
      const isRequeued = await repositories.transaction(async (transaction) => {
        const node = await transaction.nodes.lockEnrolled(nodeId);
        if (!node || node.ownerId !== ownerId) throw notFound(NODE_NOT_FOUND_MESSAGE);
        const now = clock();
        let handedBack = false;
        const running = await transaction.jobs.findRunningOnNode(node.id);
        if (running) {
          const locked = await transaction.jobs.lockById(running.id);
          if (locked?.status === 'running' && locked.assignedNodeId === node.id) {
            const ended = await endUnsuccessfulAttempt(
              transaction,
              locked,
              {
                outcome: 'released',
                reason: 'its node was unenrolled',
                isCounted: false,
                isRetryable: true,
                excludesNode: false,
              },
              now,
            );
            handedBack = ended.isRequeued;
          }
        }
        await transaction.nodes.update(node.id, {
          unenrolledAt: now,
          deviceTokenHash: null,
          isOnline: false,
          updatedAt: now,
        });
        return handedBack;
      });
      if (isRequeued) wakeups.announce();
      return { message: 'The node was unenrolled. Its device token no longer works.' };
    },
  };
}

export type NodeService = ReturnType<typeof createNodeService>;
