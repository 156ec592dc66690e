import { LEASE_TIMEOUT_SECONDS, type Node, type NodeStatus } from '@fabric/contract';
import type { NodeRow } from '../db/schema.ts';
import { addSeconds } from '../lib/clock.ts';
import { formatMicroDollars } from '../lib/money.ts';
import type { Repositories } from '../repositories/index.ts';
import { startOfUtcHour, type NodeWithCurrentJob } from '../repositories/node.repository.ts';

const MINUTE_MILLISECONDS = 60_000;
const UPTIME_WINDOW_MILLISECONDS = 24 * 60 * MINUTE_MILLISECONDS;

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

/**
 * The share of the last 24 hours (from the start of that hour, or from enrollment when later)
 * in which the node sent a heartbeat at least once a minute; null before its first heartbeat.
 */
export function uptimeShare(
  node: Pick<NodeRow, 'createdAt' | 'lastHeartbeatAt'>,
  onlineMinutes: number,
  now: Date,
): number | null {
  if (!node.lastHeartbeatAt) return null;
  const windowStart = Math.max(
    windowStartOf(now).getTime(),
    Math.floor(node.createdAt.getTime() / MINUTE_MILLISECONDS) * MINUTE_MILLISECONDS,
  );
  // The minute in progress counts as a whole one, as it does in node_activity.
  const windowMinutes = Math.max(1, Math.ceil((now.getTime() - windowStart) / MINUTE_MILLISECONDS));
  return Math.min(1, Math.max(0, onlineMinutes / windowMinutes));
}

/** node_activity rows from this hour on make up the uptime window. */
function windowStartOf(now: Date): Date {
  return startOfUtcHour(new Date(now.getTime() - UPTIME_WINDOW_MILLISECONDS));
}

/** Nodes as the API shows them, their uptime read in one query. */
export async function presentNodes(
  repositories: Repositories,
  nodes: NodeWithCurrentJob[],
  now: Date,
): Promise<Node[]> {
  const onlineMinutes = await repositories.nodes.onlineMinutesSince(
    nodes.map((node) => node.id),
    windowStartOf(now),
  );
  return nodes.map((node) => toNodeResponse(node, now, onlineMinutes.get(node.id) ?? 0));
}

export async function presentNode(
  repositories: Repositories,
  node: NodeWithCurrentJob,
  now: Date,
): Promise<Node> {
  const [presented] = await presentNodes(repositories, [node], now);
  if (!presented) throw new Error('presentNodes returned no node');
  return presented;
}

function toNodeResponse(node: NodeWithCurrentJob, now: Date, onlineMinutes: number): Node {
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
    uptime_24h: uptimeShare(node, onlineMinutes, now),
    created_at: node.createdAt.toISOString(),
  };
}
