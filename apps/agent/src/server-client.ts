import {
  agentAckResponseSchema,
  agentPaths,
  apiPaths,
  authResponseSchema,
  commitJobResponseSchema,
  completeJobResponseSchema,
  errorBodySchema,
  heartbeatResponseSchema,
  leaseResponseSchema,
  progressResponseSchema,
  registerNodeResponseSchema,
  type EnrollNodeRequest,
  type CommitJobRequest,
  type CompleteJobRequest,
  type FailJobRequest,
  type HeartbeatRequest,
  type LeaseRequest,
  type ProgressRequest,
  type RegisterNodeRequest,
} from '@fabric/contract';
import type { z } from 'zod';

// The agent's side of the protocol in contract agent.ts: every answer is parsed with its schema,
// every failure becomes a ServerError carrying the server's message.

export class ServerError extends Error {
  override readonly name = 'ServerError';
  constructor(
    message: string,
    readonly status: number,
    readonly code?: string,
  ) {
    super(message);
  }
  /** No answer at all, or the server's own fault: worth trying again later. */
  get isTransient(): boolean {
    return this.status === 0 || this.status >= 500 || this.status === 429;
  }
}

const REQUEST_TIMEOUT_MS = 15_000;

export class ServerClient {
  constructor(
    readonly baseUrl: string,
    private token: string | null = null,
  ) {}

  useToken(token: string): void {
    this.token = token;
  }

  private async call<TSchema extends z.ZodType>(
    method: 'GET' | 'POST',
    path: string,
    body: unknown,
    schema: TSchema,
    options: { timeoutMs?: number; signal?: AbortSignal; token?: string | null } = {},
  ): Promise<z.output<TSchema>> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const token = options.token === undefined ? this.token : options.token;
    if (token) headers.authorization = `Bearer ${token}`;
    const timeout = AbortSignal.timeout(options.timeoutMs ?? REQUEST_TIMEOUT_MS);
    const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
    let response: Response;
    try {
      response = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers,
        body: body === undefined ? null : JSON.stringify(body),
        signal,
      });
    } catch (error) {
      if (options.signal?.aborted) throw error;
      const reason =
        error instanceof Error
          ? error.cause instanceof Error
            ? error.cause.message
            : error.message
          : String(error);
      throw new ServerError(`Cannot reach ${this.baseUrl}: ${reason}`, 0);
    }
    const text = await response.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    if (!response.ok) {
      const parsed = errorBodySchema.safeParse(json);
      throw new ServerError(
        parsed.success
          ? parsed.data.message
          : `The server answered ${response.status} ${response.statusText}`,
        response.status,
        parsed.success ? parsed.data.code : undefined,
      );
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success)
      throw new ServerError(
        `Unexpected answer from ${path}: ${parsed.error.issues[0]?.message ?? ''}`,
        502,
      );
    return parsed.data;
  }

  login(email: string, password: string) {
    return this.call('POST', apiPaths.auth.login, { email, password }, authResponseSchema, {
      token: null,
    });
  }

  register(accessToken: string, body: RegisterNodeRequest) {
    return this.call('POST', agentPaths.register, body, registerNodeResponseSchema, {
      token: accessToken,
    });
  }

  /** Enrollment with a one-time code from Add Node: no sign-in, no password. */
  enroll(body: EnrollNodeRequest) {
    return this.call('POST', agentPaths.enroll, body, registerNodeResponseSchema, { token: null });
  }

  heartbeat(body: HeartbeatRequest) {
    return this.call('POST', agentPaths.heartbeat, body, heartbeatResponseSchema);
  }

  /** Long poll: the request stays open up to wait_seconds while the network has no work. */
  lease(body: LeaseRequest, signal?: AbortSignal) {
    const waitSeconds = body.wait_seconds ?? 0;
    return this.call('POST', agentPaths.lease, body, leaseResponseSchema, {
      timeoutMs: (waitSeconds + 15) * 1000,
      ...(signal ? { signal } : {}),
    });
  }

  progress(jobId: string, body: ProgressRequest) {
    return this.call('POST', agentPaths.progress(jobId), body, progressResponseSchema);
  }

  /** Step 1 of a result: the result and its commitment; the answer is the challenge to open. */
  commit(jobId: string, body: CommitJobRequest) {
    return this.call('POST', agentPaths.commit(jobId), body, commitJobResponseSchema, {
      timeoutMs: 60_000,
    });
  }

  /** Step 2: the opening of the challenge; the server verifies it before the job counts. */
  complete(jobId: string, body: CompleteJobRequest) {
    return this.call('POST', agentPaths.complete(jobId), body, completeJobResponseSchema, {
      timeoutMs: 60_000,
    });
  }

  fail(jobId: string, body: FailJobRequest) {
    return this.call('POST', agentPaths.fail(jobId), body, agentAckResponseSchema);
  }

  release(jobId: string, leaseId: string) {
    return this.call(
      'POST',
      agentPaths.release(jobId),
      { lease_id: leaseId },
      agentAckResponseSchema,
    );
  }
}
