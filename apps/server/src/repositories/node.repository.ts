import {
  and,
  asc,
  eq,
  getTableColumns,
  gte,
  inArray,
  isNull,
  lte,
  notInArray,
  sql,
} from 'drizzle-orm';
import type { HardwareInfo, JobType } from '@fabric/contract';
import type { Database } from '../db/connection.ts';
import {
  jobs,
  ledgerAccounts,
  ledgerEntries,
  ledgerTransactions,
  nodeActivity,
  nodes,
  type NodeRow,
} from '../db/schema.ts';

export interface NewNode {
  ownerId: string;
  deviceId: string;
  name: string | null;
  hardwareInfo: HardwareInfo;
  supportedJobTypes: JobType[];
  agentVersion: string;
  deviceTokenHash: string;
  isOnline: boolean;
  lastHeartbeatAt: Date;
  createdAt: Date;
  updatedAt: Date;
}

export type NodeChanges = Partial<Omit<NodeRow, 'id' | 'ownerId' | 'createdAt'>>;

/** A node as the API shows it: with the job it runs now (at most one) and its earnings. */
export interface NodeWithCurrentJob extends NodeRow {
  currentJobId: string | null;
  lifetimeEarningsMicros: number;
}

const isEnrolled = isNull(nodes.unenrolledAt);

const withCurrentJob = {
  currentJobId: jobs.id,
  // What the node's owner received for the jobs this node ran: their share of each job charge.
  lifetimeEarningsMicros: sql<number>`(
    SELECT COALESCE(SUM(${ledgerEntries.amountMicros}), 0)
    FROM ${ledgerEntries}
    JOIN ${ledgerTransactions} ON ${ledgerTransactions.id} = ${ledgerEntries.transactionId}
    JOIN ${ledgerAccounts} ON ${ledgerAccounts.id} = ${ledgerEntries.accountId}
    WHERE ${ledgerTransactions.nodeId} = ${nodes.id}
      AND ${ledgerTransactions.kind} = 'job_charge'
      AND ${ledgerAccounts.kind} = 'provider_pending'
  )`.mapWith(Number),
};

export function startOfUtcHour(date: Date): Date {
  const hour = new Date(date.getTime());
  hour.setUTCMinutes(0, 0, 0);
  return hour;
}

export function createNodeRepository(db: Database) {
  // jobs_one_running_per_node guarantees at most one joined row per node.
  const selectWithCurrentJob = () =>
    db
      .select({ ...getTableColumns(nodes), ...withCurrentJob })
      .from(nodes)
      .leftJoin(jobs, and(eq(jobs.assignedNodeId, nodes.id), eq(jobs.status, 'running')))
      .$dynamic();

  return {
    /**
     * Returns undefined when an enrolled node already holds the device id (the partial unique
     * index decides, even between processes).
     */
    async insert(node: NewNode): Promise<NodeRow | undefined> {
      const [row] = await db
        .insert(nodes)
        .values(node)
        .onConflictDoNothing({ target: nodes.deviceId, where: sql`${nodes.unenrolledAt} IS NULL` })
        .returning();
      return row;
    },

    async update(id: string, changes: NodeChanges): Promise<NodeRow | undefined> {
      const [row] = await db.update(nodes).set(changes).where(eq(nodes.id, id)).returning();
      return row;
    },

    async findEnrolledByDeviceId(deviceId: string): Promise<NodeRow | undefined> {
      const [row] = await db
        .select()
        .from(nodes)
        .where(and(eq(nodes.deviceId, deviceId), isEnrolled))
        .limit(1);
      return row;
    },

    /** The owner's most recent node for a device, enrolled or not (re-enrolling reuses it). */
    async findLatestOfOwnerByDeviceId(
      ownerId: string,
      deviceId: string,
    ): Promise<NodeRow | undefined> {
      const [row] = await db
        .select()
        .from(nodes)
        .where(and(eq(nodes.ownerId, ownerId), eq(nodes.deviceId, deviceId)))
        .orderBy(sql`${nodes.unenrolledAt} DESC NULLS FIRST`, sql`${nodes.createdAt} DESC`)
        .limit(1);
      return row;
    },

    async findEnrolledByTokenHash(tokenHash: string): Promise<NodeRow | undefined> {
      const [row] = await db
        .select()
        .from(nodes)
        .where(and(eq(nodes.deviceTokenHash, tokenHash), isEnrolled))
        .limit(1);
      return row;
    },

    /** Any node, enrolled or not (a job's charge pays the owner of the node that ran it). */
    async findAnyById(id: string): Promise<NodeRow | undefined> {
      const [row] = await db.select().from(nodes).where(eq(nodes.id, id)).limit(1);
      return row;
    },

    async findEnrolledById(id: string): Promise<NodeWithCurrentJob | undefined> {
      const [row] = await selectWithCurrentJob()
        .where(and(eq(nodes.id, id), isEnrolled))
        .limit(1);
      return row;
    },

    async listEnrolledOfOwner(ownerId: string): Promise<NodeWithCurrentJob[]> {
      return selectWithCurrentJob()
        .where(and(eq(nodes.ownerId, ownerId), isEnrolled))
        .orderBy(asc(nodes.createdAt), asc(nodes.id));
    },

    async countEnrolledOfOwner(ownerId: string): Promise<number> {
      const [row] = await db
        .select({ total: sql<number>`count(*)`.mapWith(Number) })
        .from(nodes)
        .where(and(eq(nodes.ownerId, ownerId), isEnrolled));
      return row?.total ?? 0;
    },

    /** The ids of the owner's enrolled nodes. */
    async listEnrolledIdsOfOwner(ownerId: string): Promise<string[]> {
      const rows = await db
        .select({ id: nodes.id })
        .from(nodes)
        .where(and(eq(nodes.ownerId, ownerId), isEnrolled));
      return rows.map((row) => row.id);
    },

    /**
     * Whether a provider not in `ownerIds` has an enrolled, online, unpaused node that runs the job
     * type and is not excluded from the job. With `free`, the node must also have been heard from
     * since `heardSince`, be in good standing (fewer than `refusalLimit` refused results) and run
     * no job: one that could replicate the job now.
     */
    async existsRunnerOfOtherOwner(input: {
      jobType: JobType;
      ownerIds: string[];
      excludedNodeIds: string[];
      free?: { heardSince: Date; refusalLimit: number };
    }): Promise<boolean> {
      const { free } = input;
      const [row] = await db
        .select({ id: nodes.id })
        .from(nodes)
        .where(
          and(
            isEnrolled,
            eq(nodes.isOnline, true),
            isNull(nodes.pausedAt),
            notInArray(nodes.ownerId, input.ownerIds),
            sql`${input.jobType} = ANY(${nodes.supportedJobTypes})`,
            input.excludedNodeIds.length > 0
              ? notInArray(nodes.id, input.excludedNodeIds)
              : undefined,
            ...(free
              ? [
                  gte(nodes.lastHeartbeatAt, free.heardSince),
                  sql`${nodes.resultsRefused} < ${free.refusalLimit}`,
                  sql`NOT EXISTS (SELECT 1 FROM ${jobs} WHERE ${jobs.assignedNodeId} = ${nodes.id} AND ${jobs.status} = 'running')`,
                ]
              : []),
          ),
        )
        .limit(1);
      return row !== undefined;
    },

    /** Locks an enrolled node for the rest of the transaction (lease, unenroll). */
    async lockEnrolled(id: string): Promise<NodeRow | undefined> {
      const [row] = await db
        .select()
        .from(nodes)
        .where(and(eq(nodes.id, id), isEnrolled))
        .for('update');
      return row;
    },

    /** The node called in: it is online now, and this minute counts towards its uptime. */
    async recordHeartbeat(
      id: string,
      now: Date,
      hardwareInfo: HardwareInfo | undefined,
    ): Promise<NodeRow | undefined> {
      const [row] = await db
        .update(nodes)
        .set({
          isOnline: true,
          lastHeartbeatAt: now,
          ...(hardwareInfo ? { hardwareInfo } : {}),
        })
        .where(and(eq(nodes.id, id), isEnrolled))
        .returning();
      if (row) {
        const minuteBit = 1n << BigInt(now.getUTCMinutes());
        await db
          .insert(nodeActivity)
          .values({ nodeId: id, hour: startOfUtcHour(now), minutes: minuteBit })
          .onConflictDoUpdate({
            target: [nodeActivity.nodeId, nodeActivity.hour],
            set: { minutes: sql`${nodeActivity.minutes} | excluded.minutes` },
            // Most heartbeats land in a minute already marked: leave the row alone then.
            setWhere: sql`(${nodeActivity.minutes} & excluded.minutes) = 0`,
          });
      }
      return row;
    },

    /** Minutes with a heartbeat since `since` (an hour boundary), per node; absent nodes had none. */
    async onlineMinutesSince(nodeIds: string[], since: Date): Promise<Map<string, number>> {
      if (nodeIds.length === 0) return new Map();
      const rows = await db
        .select({
          nodeId: nodeActivity.nodeId,
          minutes: sql<number>`SUM(bit_count(${nodeActivity.minutes}::bit(64)))`.mapWith(Number),
        })
        .from(nodeActivity)
        .where(and(inArray(nodeActivity.nodeId, nodeIds), gte(nodeActivity.hour, since)))
        .groupBy(nodeActivity.nodeId);
      return new Map(rows.map((row) => [row.nodeId, row.minutes]));
    },

    /** Activity older than `cutoff` (housekeeping). */
    async deleteActivityBefore(cutoff: Date): Promise<void> {
      await db.delete(nodeActivity).where(lte(nodeActivity.hour, cutoff));
    },

    /** Nodes silent since `cutoff` go offline; idempotent, so any number of processes may run it. */
    async markSilentNodesOffline(
      cutoff: Date,
      now: Date,
    ): Promise<Pick<NodeRow, 'id' | 'ownerId' | 'name' | 'deviceId' | 'lastHeartbeatAt'>[]> {
      return db
        .update(nodes)
        .set({ isOnline: false, updatedAt: now })
        .where(and(eq(nodes.isOnline, true), lte(nodes.lastHeartbeatAt, cutoff)))
        .returning({
          id: nodes.id,
          ownerId: nodes.ownerId,
          name: nodes.name,
          deviceId: nodes.deviceId,
          lastHeartbeatAt: nodes.lastHeartbeatAt,
        });
    },

    /** One more refused result for the node; answers the node as it is now. */
    async incrementResultsRefused(id: string, now: Date): Promise<NodeRow | undefined> {
      const [row] = await db
        .update(nodes)
        .set({ resultsRefused: sql`${nodes.resultsRefused} + 1`, updatedAt: now })
        .where(eq(nodes.id, id))
        .returning();
      return row;
    },

    async incrementJobsCompleted(id: string, now: Date): Promise<void> {
      await db
        .update(nodes)
        .set({ jobsCompleted: sql`${nodes.jobsCompleted} + 1`, updatedAt: now })
        .where(eq(nodes.id, id));
    },
  };
}

export type NodeRepository = ReturnType<typeof createNodeRepository>;
