// My Jobs at scale: one enterprise buys credits and submits 10,000 jobs through the API (each
// places a hold in the ledger; no node runs them, so they stay queued), then the job list is read
// the way the screens read it: first page, the Running tab, the deepest page. Loopback only,
// bounded: 10,000 submits, then 5 seconds a scenario.
import autocannon from 'autocannon';
import { startServer } from '../e2e/support/server.ts';
import { summarize } from './summary.ts';

const JOB_COUNT = 10_000;
const DURATION_SECONDS = 5;
const PAGE_SIZE = 20;

const server = await startServer({ LOG_LEVEL: 'warn', AUTH_RATE_LIMIT_PER_IP: '1000000' });
try {
  const registered = await fetch(`${server.url}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      email: 'jobs-bench@example.com',
      password: 'benchmark passphrase',
      role: 'enterprise',
    }),
  });
  const { access_token: accessToken } = (await registered.json()) as { access_token: string };
  const headers = { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' };
  // Each job holds $2.40 of credits while queued: buy enough for all of them (sandbox payment).
  const credits = await fetch(`${server.url}/api/payment/add-credits`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ amount: JOB_COUNT * 2.4 }),
  });
  if (!credits.ok) throw new Error(`Adding credits answered ${credits.status.toString()}`);

  const rows = [];
  const submits = await autocannon({
    url: `${server.url}/api/jobs/submit`,
    method: 'POST',
    connections: 10,
    amount: JOB_COUNT,
    headers,
    body: JSON.stringify({ job_type: 'fibonacci', params: { n: 1000 }, priority: 0 }),
  });
  rows.push(summarize(`POST /api/jobs/submit ×${JOB_COUNT.toString()}`, submits));

  const lastPage = Math.ceil(JOB_COUNT / PAGE_SIZE);
  // One connection: the latency one person on My Jobs sees.
  const single = await autocannon({
    url: `${server.url}/api/jobs?page_size=${PAGE_SIZE.toString()}`,
    connections: 1,
    duration: DURATION_SECONDS,
    headers,
  });
  rows.push(summarize('GET /api/jobs, 1 connection', single));

  const reads = [
    ['GET /api/jobs (first page + tab counts)', `/api/jobs?page_size=${PAGE_SIZE.toString()}`],
    ['GET /api/jobs?status=running', `/api/jobs?status=running&page_size=${PAGE_SIZE.toString()}`],
    [
      `GET /api/jobs?page=${lastPage.toString()} (deepest page)`,
      `/api/jobs?page=${lastPage.toString()}&page_size=${PAGE_SIZE.toString()}`,
    ],
  ] as const;
  for (const [name, path] of reads) {
    const result = await autocannon({
      url: `${server.url}${path}`,
      connections: 10,
      duration: DURATION_SECONDS,
      headers,
    });
    rows.push(summarize(name, result));
  }
  console.table(rows);
} finally {
  await server.stop();
}
