import { leaseResponseSchema, type Lease } from '@fabric/contract';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeAll, expect, it } from 'vitest';
import { jobAttempts, jobs } from '../src/db/schema.ts';
import {
  cancelUnfinishedJobs,
  enrollNode,
  leaseRequest,
  registerEnterprise,
  registerProvider,
  submitJob,
  waitUntil,
  type EnrolledNode,
} from './support/compute-network.ts';
import { describeEachDatabase } from './support/databases.ts';

const NODES = 8;
const JOBS = 12;
const LEASES_PER_NODE = 4;

describeEachDatabase('scheduler: several server processes on one database', (database) => {
  let first: FastifyInstance;
  let second: FastifyInstance;

  beforeAll(async () => {
    if (database.kind === 'postgres') {
      // Two apps with their own connection pools and listeners: as two processes would be.
      const config = { config: database.ownedDatabaseConfig() };
      first = await database.buildAppWith(config);
      second = await database.buildAppWith(config);
    } else {
      // PGlite is one in-process connection: two apps share it.
      first = await database.buildApp();
      second = await database.buildApp();
    }
  });

  afterEach(() => cancelUnfinishedJobs(database));

  it('hands each job to exactly one node when leases race across both apps', async () => {
    const provider = await registerProvider(first);
    const enterprise = await registerEnterprise(second);
    const nodes: EnrolledNode[] = [];
    for (let index = 0; index < NODES; index += 1) nodes.push(await enrollNode(first, provider));
    const submitted = new Set<string>();
    for (let index = 0; index < JOBS; index += 1) {
      submitted.add((await submitJob(second, enterprise)).id);
    }

    const calls = nodes.flatMap((node, nodeIndex) =>
      Array.from({ length: LEASES_PER_NODE }, (_, callIndex) => ({
        node,
        app: (nodeIndex + callIndex) % 2 === 0 ? first : second,
      })),
    );
    const answers = await Promise.all(
      calls.map(async ({ node, app }) => {
        const response = await leaseRequest(app, node.deviceToken);
        expect(response.statusCode, response.body).toBe(200);
        return { node, lease: leaseResponseSchema.parse(response.json()).lease };
      }),
    );

    // Every call got a lease (there are more jobs than nodes); each node holds one job only.
    const jobOfNode = new Map<string, Set<string>>();
    for (const { node, lease } of answers) {
      expect(lease).not.toBeNull();
      const jobIds = jobOfNode.get(node.node.id) ?? new Set();
      jobIds.add((lease as Lease).job_id);
      jobOfNode.set(node.node.id, jobIds);
    }
    const heldJobs = [...jobOfNode.values()].map((jobIds) => {
      expect(jobIds.size).toBe(1);
      return [...jobIds][0] as string;
    });
    expect(new Set(heldJobs).size).toBe(NODES);
    for (const jobId of heldJobs) expect(submitted.has(jobId)).toBe(true);

    // The database agrees: one attempt per leased job, and the rest still queued.
    const { db } = await database.connection();
    for (const jobId of heldJobs) {
      const attempts = await db.select().from(jobAttempts).where(eq(jobAttempts.jobId, jobId));
      expect(attempts).toHaveLength(1);
    }
    const rows = await db.select({ id: jobs.id, status: jobs.status }).from(jobs);
    const ofThisTest = rows.filter((row) => submitted.has(row.id));
    expect(ofThisTest.filter((row) => row.status === 'running')).toHaveLength(NODES);
    expect(ofThisTest.filter((row) => row.status === 'queued')).toHaveLength(JOBS - NODES);
  });

  it('a lease waiting in one app is woken by a job submitted in the other', async () => {
    const provider = await registerProvider(first);
    const enterprise = await registerEnterprise(second);
    const { deviceToken } = await enrollNode(first, provider);
    const waiting = leaseRequest(first, deviceToken, 25);
    await waitUntil(() => first.scheduler.waitingLeaseCount() > 0, 'the lease request waits');
    const job = await submitJob(second, enterprise);
    const response = await waiting;
    expect(response.statusCode).toBe(200);
    expect(leaseResponseSchema.parse(response.json()).lease?.job_id).toBe(job.id);
  });
});
