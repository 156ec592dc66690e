import { agentPaths, apiPaths, notificationListResponseSchema } from '@fabric/contract';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { bearer } from './support/auth.ts';
import { createManualClock } from './support/clock.ts';
import {
  agentCall,
  enrollNode,
  getJob,
  heartbeat,
  leaseJob,
  registerEnterprise,
  registerProvider,
  submitJob,
} from './support/compute-network.ts';
import { describeEachDatabase } from './support/databases.ts';
import { balanceOf, expectLedgerSound } from './support/money.ts';

const HOUR = 60 * 60 * 1000;

describeEachDatabase('queued jobs no node starts in time', (database) => {
  let app: FastifyInstance;
  const clock = createManualClock();

  beforeAll(async () => {
    app = await database.buildApp({
      clock: clock.now,
      // The clock moves days ahead; the test's sign-ins must outlive that.
      config: { queueTimeoutHours: 24, accessTokenTtlSeconds: 30 * 24 * 60 * 60 },
    });
  });

  const notificationsOf = async (token: string) =>
    notificationListResponseSchema.parse(
      (await app.inject({ url: apiPaths.notifications.list, headers: bearer(token) })).json(),
    ).notifications;

  describe('after QUEUE_TIMEOUT_HOURS in the queue', () => {
    it('fails the job free of charge, returns the whole hold and tells its owner', async () => {
      const enterprise = await registerEnterprise(app, { credits: 50 });
      // An AI type no node can run yet, and a runnable type with no node online.
      const waiting = await submitJob(app, enterprise, {
        job_type: 'llm_inference',
        params: { prompt: 'hello' },
      });
      const stranded = await submitJob(app, enterprise, { job_type: 'fibonacci' });
      expect((await balanceOf(app, enterprise)).balance).toBe(45.2);
      // Its owner is told until when it waits.
      expect(waiting.queue_expires_at).toBe(
        new Date(clock.now().getTime() + 24 * HOUR).toISOString(),
      );

      clock.advanceBy(24 * HOUR - 1000);
      await app.scheduler.sweep();
      expect((await getJob(app, enterprise, waiting.id)).status).toBe('queued');

      clock.advanceBy(2000);
      await app.scheduler.sweep();
      for (const id of [waiting.id, stranded.id]) {
        const job = await getJob(app, enterprise, id);
        expect(job.status).toBe('failed');
        expect(job.error).toBe(
          'No node picked up this job within 24 hours, so it was stopped. Nothing was charged.',
        );
        expect(job.queue_reason).toBeNull();
        expect(job.queue_expires_at).toBeNull();
        expect(job.actual_cost).toBe(0);
        expect(job.finished_at).not.toBeNull();
      }
      const balance = await balanceOf(app, enterprise);
      expect(balance.balance).toBe(50);
      expect(balance.held_credits).toBe(0);
      const failedNotices = (await notificationsOf(enterprise)).filter(
        (notice) => notice.kind === 'job_failed',
      );
      expect(failedNotices).toHaveLength(2);

      // A second sweep (another process) finds nothing more to do.
      await app.scheduler.sweep();
      expect(
        (await notificationsOf(enterprise)).filter((n) => n.kind === 'job_failed'),
      ).toHaveLength(2);
      await expectLedgerSound(database);
    });

    it('counts from when a job went back to the queue, not from its submission', async () => {
      const enterprise = await registerEnterprise(app);
      const provider = await registerProvider(app);
      const job = await submitJob(app, enterprise, { job_type: 'fibonacci' });
      clock.advanceBy(23 * HOUR);
      const { deviceToken } = await enrollNode(app, provider);
      const lease = await leaseJob(app, deviceToken);
      // The node hands the job back after two hours: a new day in the queue starts.
      clock.advanceBy(2 * HOUR);
      const release = await agentCall(app, deviceToken, agentPaths.release(job.id), {
        lease_id: lease.lease_id,
      });
      expect(release.statusCode, release.body).toBe(200);
      await app.scheduler.sweep();
      const requeued = await getJob(app, enterprise, job.id);
      expect(requeued.status).toBe('queued');
      expect(requeued.queue_expires_at).toBe(
        new Date(clock.now().getTime() + 24 * HOUR).toISOString(),
      );

      clock.advanceBy(24 * HOUR + 1000);
      await app.scheduler.sweep();
      expect((await getJob(app, enterprise, job.id)).status).toBe('failed');
    });

    it('never stops a running job', async () => {
      const enterprise = await registerEnterprise(app);
      const provider = await registerProvider(app);
      const job = await submitJob(app, enterprise, { job_type: 'fibonacci' });
      clock.advanceBy(24 * HOUR - 10_000);
      const { deviceToken } = await enrollNode(app, provider);
      await leaseJob(app, deviceToken);
      clock.advanceBy(30_000);
      // A heartbeat keeps the lease (the sweeper would requeue an expired one, which is tested
      // elsewhere); the job was submitted over 24 hours ago but is running, not waiting.
      await heartbeat(app, deviceToken);
      await app.scheduler.sweep();
      expect((await getJob(app, enterprise, job.id)).status).toBe('running');
    });
  });
});
