import {
  apiPaths,
  authResponseSchema,
  errorBodySchema,
  jobSchema,
  nodeListResponseSchema,
  unreadCountResponseSchema,
  type Job,
  type Role,
  type SubmitJobRequest,
} from '@fabric/contract';

// A small client of the real API for tests that drive the network without a browser.

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly field?: string,
  ) {
    super(`${status}: ${message}`);
  }
}

export async function callApi(
  baseUrl: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown } = {},
): Promise<unknown> {
  const headers: Record<string, string> = {};
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    body: options.body === undefined ? null : JSON.stringify(options.body),
  });
  const json: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const parsed = errorBodySchema.safeParse(json);
    throw new ApiFailure(
      response.status,
      parsed.success ? parsed.data.message : 'no message',
      parsed.success ? parsed.data.field : undefined,
    );
  }
  return json;
}

export interface Account {
  email: string;
  password: string;
  token: string;
  userId: string;
}

/** Credits a test enterprise buys first (through the sandbox card flow), enough for many jobs. */
export const TEST_CREDITS_USD = 500;

let accountCounter = 0;
/** A new account; an enterprise also buys `credits` dollars of credits (jobs hold $2.40 each). */
export async function createAccount(
  baseUrl: string,
  role: Role,
  { credits = TEST_CREDITS_USD }: { credits?: number } = {},
): Promise<Account> {
  accountCounter += 1;
  const email = `${role}-${Date.now().toString(36)}-${accountCounter}@example.com`;
  const password = 'integration passphrase';
  const session = authResponseSchema.parse(
    await callApi(baseUrl, 'POST', apiPaths.auth.register, {
      body: {
        email,
        password,
        role,
        ...(role === 'enterprise' ? { organization_name: 'Test Org' } : { name: 'Test Provider' }),
      },
    }),
  );
  if (role === 'enterprise' && credits > 0) {
    await callApi(baseUrl, 'POST', apiPaths.payment.addCredits, {
      token: session.access_token,
      body: { amount: credits },
    });
  }
  return { email, password, token: session.access_token, userId: session.user_id };
}

export async function submitJob(
  baseUrl: string,
  account: Account,
  body: SubmitJobRequest,
): Promise<Job> {
  return jobSchema.parse(
    await callApi(baseUrl, 'POST', apiPaths.jobs.submit, { token: account.token, body }),
  );
}

export async function getJob(baseUrl: string, account: Account, jobId: string): Promise<Job> {
  return jobSchema.parse(
    await callApi(baseUrl, 'GET', apiPaths.jobs.detail(jobId), { token: account.token }),
  );
}

export async function listNodes(baseUrl: string, account: Account) {
  return nodeListResponseSchema.parse(
    await callApi(baseUrl, 'GET', apiPaths.nodes.list, { token: account.token }),
  ).nodes;
}

/** Polls the job until `isDone` holds (or the deadline passes, which fails the test with the last state). */
export async function waitForJob(
  baseUrl: string,
  account: Account,
  jobId: string,
  isDone: (job: Job) => boolean = (job) =>
    ['completed', 'failed', 'cancelled'].includes(job.status),
  timeoutMs = 60_000,
): Promise<Job> {
  const deadline = Date.now() + timeoutMs;
  let job = await getJob(baseUrl, account, jobId);
  while (!isDone(job)) {
    if (Date.now() > deadline)
      throw new Error(`job ${jobId} did not reach the expected state: ${JSON.stringify(job)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    job = await getJob(baseUrl, account, jobId);
  }
  return job;
}

/** Polls until the account has an unread notification (or fails after `timeoutMs`). */
export async function waitForUnreadNotification(
  baseUrl: string,
  account: Account,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { unread } = unreadCountResponseSchema.parse(
      await callApi(baseUrl, 'GET', apiPaths.notifications.unreadCount, { token: account.token }),
    );
    if (unread > 0) return;
    if (Date.now() > deadline)
      throw new Error(`${account.email} got no notification within ${timeoutMs.toString()} ms`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
