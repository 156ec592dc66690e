import {
  DEVICE_TOKEN_PREFIX,
  ERROR_CODES,
  LEASE_TIMEOUT_SECONDS,
  type HeartbeatRequest,
  type HeartbeatResponse,
  type RegisterNodeRequest,
  type RegisterNodeResponse,
  type heartbeatRequestSchema,
} from '@fabric/contract';
import type { z } from 'zod';
import type { NodeRow } from '../db/schema.ts';
import { addSeconds, type Clock } from '../lib/clock.ts';
import { isUniqueViolation } from '../lib/database-errors.ts';
import { conflict, HttpError, unauthenticated } from '../lib/http-errors.ts';
import { generateSecretToken, hashSecretToken } from '../lib/secret-token.ts';
import type { Repositories } from '../repositories/index.ts';
import { nodeStatusOf, presentNode } from './node-view.ts';

export type HeartbeatInput = z.output<typeof heartbeatRequestSchema>;
export type { HeartbeatRequest };

export const DEVICE_TOKEN_REQUIRED_MESSAGE =
  'Agent calls need "Authorization: Bearer <device token>", the token /api/agent/register returned';
export const NOT_A_DEVICE_TOKEN_MESSAGE = `This is not a device token (they start with ${DEVICE_TOKEN_PREFIX}): agent calls take the token /api/agent/register returned`;
export const INVALID_DEVICE_TOKEN_MESSAGE =
  'This device token is no longer valid: the node was unenrolled or enrolled again. Enroll the device again.';
export const DEVICE_TAKEN_MESSAGE =
  "This device is enrolled in another provider's account. That account must unenroll it first.";

export function invalidDeviceToken(message = INVALID_DEVICE_TOKEN_MESSAGE): HttpError {
  return new HttpError(401, message, ERROR_CODES.invalidDeviceToken);
}

function newDeviceToken(): { token: string; hash: string } {
  const token = `${DEVICE_TOKEN_PREFIX}${generateSecretToken()}`;
  return { token, hash: hashSecretToken(token) };
}

/** Enrollment of devices, device-token authentication and heartbeats. */
export function createDeviceService(options: {
  repositories: Repositories;
  clock: Clock;
  /** MAX_NODES_PER_PROVIDER: enrolled nodes one account may have at once. */
  maxNodesPerProvider: number;
}) {
  const { repositories, clock, maxNodesPerProvider } = options;

  /**
   * Returns the node and whether it was created (false: an existing node was enrolled again).
   * Runs in a transaction holding the owner's row lock, so the node limit holds however many
   * devices enroll at once.
   */
  async function enroll(
    ownerId: string,
    input: RegisterNodeRequest,
    tokenHash: string,
  ): Promise<{ node: NodeRow; isNew: boolean }> {
    return repositories.transaction(async (transaction) => {
      await transaction.users.lockById(ownerId);
      return enrollLocked(transaction, ownerId, input, tokenHash);
    });
  }

  async function enrollLocked(
    repositories: Repositories,
    ownerId: string,
    input: RegisterNodeRequest,
    tokenHash: string,
  ): Promise<{ node: NodeRow; isNew: boolean }> {
    const now = clock();
    const reported = {
      hardwareInfo: input.hardware_info,
      supportedJobTypes: input.supported_job_types,
      agentVersion: input.agent_version,
      deviceTokenHash: tokenHash,
      isOnline: true,
      lastHeartbeatAt: now,
      updatedAt: now,
    };
    const enrolled = await repositories.nodes.findEnrolledByDeviceId(input.device_id);
    if (enrolled) {
      if (enrolled.ownerId !== ownerId) throw conflict(DEVICE_TAKEN_MESSAGE, 'device_id');
      // Same device, same owner: the same node, with a new token (the old one stops working).
      const node = await repositories.nodes.update(enrolled.id, {
        ...reported,
        name: input.name ?? enrolled.name,
      });
      if (node) return { node, isNew: false };
    }
    // Everything below adds an enrolled node to the account.
    if ((await repositories.nodes.countEnrolledOfOwner(ownerId)) >= maxNodesPerProvider) {
      throw conflict(
        `This account has reached its limit of ${maxNodesPerProvider.toString()} enrolled nodes. Unenroll a node before adding another.`,
      );
    }
    const previous = await repositories.nodes.findLatestOfOwnerByDeviceId(ownerId, input.device_id);
    if (previous?.unenrolledAt) {
      // Unenrolled earlier by this owner: enroll the same node again, fresh (not paused).
      const node = await repositories.nodes.update(previous.id, {
        ...reported,
        name: input.name ?? previous.name,
        unenrolledAt: null,
        pausedAt: null,
      });
      if (node) return { node, isNew: false };
    }
    const node = await repositories.nodes.insert({
      ...reported,
      ownerId,
      deviceId: input.device_id,
      name: input.name ?? null,
      createdAt: now,
    });
    if (!node) throw new EnrollmentRaceError();
    return { node, isNew: true };
  }

  return {
    async register(
      ownerId: string,
      input: RegisterNodeRequest,
    ): Promise<{ response: RegisterNodeResponse; isNew: boolean }> {
      const { token, hash } = newDeviceToken();
      let enrollment: { node: NodeRow; isNew: boolean } | undefined;
      // Two enrollments of one device at the same moment: the unique index lets one through;
      // the other looks again and finds the winner's node.
      for (let round = 0; round < 3 && !enrollment; round += 1) {
        try {
          enrollment = await enroll(ownerId, input, hash);
        } catch (error) {
          if (!(error instanceof EnrollmentRaceError) && !isUniqueViolation(error)) throw error;
        }
      }
      if (!enrollment) throw conflict('This device is being enrolled right now; try again.');
      // Enrolling is the device's first call of the day: it counts towards uptime.
      const now = clock();
      await repositories.nodes.recordHeartbeat(enrollment.node.id, now, undefined);
      const node = await repositories.nodes.findEnrolledById(enrollment.node.id);
      if (!node) throw conflict('This device was unenrolled while enrolling; try again.');
      return {
        response: { node: await presentNode(repositories, node, now), device_token: token },
        isNew: enrollment.isNew,
      };
    },

    /** The enrolled node a device token belongs to, or a 401 saying why not. */
    async identify(token: string): Promise<NodeRow> {
      if (!token.startsWith(DEVICE_TOKEN_PREFIX)) {
        throw invalidDeviceToken(NOT_A_DEVICE_TOKEN_MESSAGE);
      }
      const node = await repositories.nodes.findEnrolledByTokenHash(hashSecretToken(token));
      if (!node) throw invalidDeviceToken();
      return node;
    },

    /**
     * The node is alive: it is online, its hardware info is current, and the lease of the job it
     * runs is extended. Jobs the agent runs that are no longer its own (cancelled, or taken back
     * after the lease expired) come back in abort_job_ids.
     */
    async heartbeat(nodeId: string, input: HeartbeatInput): Promise<HeartbeatResponse> {
      const now = clock();
      const node = await repositories.nodes.recordHeartbeat(nodeId, now, input.hardware_info);
      if (!node) throw invalidDeviceToken();
      await repositories.jobs.extendLeaseOfNode(nodeId, addSeconds(now, LEASE_TIMEOUT_SECONDS));
      const stillRunning = new Set(
        await repositories.jobs.filterRunningOnNode(nodeId, input.running_job_ids),
      );
      return {
        status: nodeStatusOf(node, now),
        abort_job_ids: input.running_job_ids.filter((id) => !stillRunning.has(id)),
        server_time: now.toISOString(),
      };
    },
  };
}

class EnrollmentRaceError extends Error {}

/** For routes: no header at all. */
export function deviceTokenRequired(): HttpError {
  return unauthenticated(DEVICE_TOKEN_REQUIRED_MESSAGE);
}

export type DeviceService = ReturnType<typeof createDeviceService>;
