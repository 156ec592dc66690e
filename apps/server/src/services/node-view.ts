import { LEASE_TIMEOUT_SECONDS, type Node, type NodeStatus } from '@fabric/contract';
import type { NodeRow } from '../db/schema.ts';
import { addSeconds } from '../lib/clock.ts';
import { formatMicroDollars } from '../lib/money.ts';
import type { NodeWithCurrentJob } from '../repositories/node.repository.ts';

/**
 * Paused when its owner paused it; otherwise online while heartbeats arrive (a node silent for
 * LEASE_TIMEOUT_SECONDS is offline even before the sweeper has marked it so).
 */
export function nodeStatusOf(node: NodeRow, now: Date): NodeStatus {
  if (node.pausedAt) return 'paused';
  const isFresh =
    node.lastHeartbeatAt !== null && addSeconds(node.lastHeartbeatAt, LEASE_TIMEOUT_SECONDS) > now;
  return node.isOnline && isFresh ? 'online' : 'offline';
}

export function toNodeResponse(node: NodeWithCurrentJob, now: Date): Node {
  return {
    id: node.id,
    name: node.name,
    device_id: node.deviceId,
    status: nodeStatusOf(node, now),
    jobs_completed: node.jobsCompleted,
    lifetime_earnings: formatMicroDollars(node.lifetimeEarningsMicros),
    hardware_info: node.hardwareInfo,
    last_heartbeat: node.lastHeartbeatAt?.toISOString() ?? null,
    supported_job_types: node.supportedJobTypes,
    agent_version: node.agentVersion,
    current_job_id: node.currentJobId,
    created_at: node.createdAt.toISOString(),
  };
}
