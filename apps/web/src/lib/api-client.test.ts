import { apiPaths, STORAGE_KEYS, userSchema } from '@fabric/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { authResponseFor, providerUser, storeSession } from '@/testing/fixtures';
import { jsonResponse, stubFetch } from '@/testing/fetch-stub';
import { api, ApiError, errorMessage, setSessionExpiredHandler } from './api-client';

const ME = `GET ${apiPaths.auth.me}`;
const REFRESH = `POST ${apiPaths.auth.refresh}`;

let onSessionExpired: ReturnType<typeof vi.fn<() => void>>;
let restoreHandler: () => void;

beforeEach(() => {
  onSessionExpired = vi.fn<() => void>();
  restoreHandler = setSessionExpiredHandler(onSessionExpired);
});

afterEach(() => {
  restoreHandler();
});

async function rejectionOf(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

describe('api client: requests and answers', () => {
  it('sends the stored access token as a bearer header and returns the parsed answer', async () => {
    storeSession({ accessToken: 'token-abc' });
    const network = stubFetch().on(ME, () => jsonResponse(200, providerUser));

    const user = await api.get(apiPaths.auth.me, userSchema);

    expect(user).toEqual(providerUser);
    expect(network.calls[0]?.headers.get('Authorization')).toBe('Bearer token-abc');
  });

  it('sends JSON bodies with a JSON content type', async () => {
    storeSession();
    const network = stubFetch().on(`PUT ${apiPaths.auth.profile}`, () =>
      jsonResponse(200, providerUser),
    );

    await api.put(apiPaths.auth.profile, { name: 'Ada' }, userSchema);

    const call = network.calls[0];
    expect(call?.headers.get('Content-Type')).toBe('application/json');
    expect(call?.body).toEqual({ name: 'Ada' });
  });

  it('makes public calls without a token and without an Authorization header', async () => {
    const network = stubFetch().on(`POST ${apiPaths.auth.login}`, () =>
      jsonResponse(200, authResponseFor(providerUser)),
    );

    await api.post(apiPaths.auth.login, { email: 'a@b.co', password: 'x' }, z.unknown());

    expect(network.calls).toHaveLength(1);
    expect(network.calls[0]?.headers.has('Authorization')).toBe(false);
  });

  it('leaves undefined query values out of the URL', async () => {
    storeSession();
    const network = stubFetch().on(`GET ${apiPaths.jobs.list}`, () => jsonResponse(200, {}));

    await api.get(apiPaths.jobs.list, z.object({}), {
      query: { status: 'running', page: undefined },
    });

    expect(network.calls[0]?.url).toBe('/api/jobs?status=running');
  });

  it('fails authenticated calls with the sign-in message, without a request, when no token is stored', async () => {
    const network = stubFetch();

    const error = await rejectionOf(api.get(apiPaths.auth.me, userSchema));

    expect(error.message).toBe('No authentication token found. Please sign in.');
    expect(network.calls).toHaveLength(0);
  });
});

describe('api client: errors', () => {
  it('throws an ApiError carrying the message, code, field and status of the error body', async () => {
    stubFetch().on(`POST ${apiPaths.auth.register}`, () =>
      jsonResponse(409, { message: 'Email already registered', code: 'CONFLICT', field: 'email' }),
    );

    const error = await rejectionOf(api.post(apiPaths.auth.register, {}, z.unknown()));

    expect(error).toMatchObject({
      message: 'Email already registered',
      serverMessage: 'Email already registered',
      code: 'CONFLICT',
      field: 'email',
      status: 409,
    });
  });

  it.each([
    ['an empty body', () => new Response(null, { status: 500 })],
    ['a body that is not JSON', () => new Response('<html>Bad gateway</html>', { status: 502 })],
    ['a JSON body without a message', () => jsonResponse(400, { error: 'nope' })],
  ])("falls back to 'API request failed' for %s", async (_case, answer) => {
    stubFetch().on(`POST ${apiPaths.auth.login}`, answer);

    const error = await rejectionOf(api.post(apiPaths.auth.login, {}, z.unknown()));

    expect(error.message).toBe('API request failed');
    expect(error.serverMessage).toBeUndefined();
    expect(errorMessage(error, 'Invalid credentials. Please try again.')).toBe(
      'Invalid credentials. Please try again.',
    );
  });

  it("fails with 'API request failed' when a 2xx answer does not match the contract schema", async () => {
    storeSession();
    stubFetch().on(ME, () => jsonResponse(200, { id: 'not-a-user' }));

    const error = await rejectionOf(api.get(apiPaths.auth.me, userSchema));

    expect(error.message).toBe('API request failed');
    expect(error.code).toBe('INVALID_RESPONSE');
  });

  it("fails with 'API request failed' when the server cannot be reached", async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));

    const error = await rejectionOf(api.post(apiPaths.auth.login, {}, z.unknown()));

    expect(error).toMatchObject({ message: 'API request failed', status: 0 });
  });
});

describe('api client: expired access token', () => {
  it('refreshes once on a 401, stores the new tokens and retries the request with the new token', async () => {
    storeSession({ accessToken: 'old-access', refreshToken: 'old-refresh' });
    const network = stubFetch()
      .on(ME, (call) =>
        call.headers.get('Authorization') === 'Bearer access-2'
          ? jsonResponse(200, providerUser)
          : jsonResponse(401, { message: 'Session expired', code: 'SESSION_EXPIRED' }),
      )
      .on(REFRESH, () => jsonResponse(200, authResponseFor(providerUser, '2')));

    const user = await api.get(apiPaths.auth.me, userSchema);

    expect(user.email).toBe(providerUser.email);
    expect(network.callsTo(REFRESH).map((call) => call.body)).toEqual([
      { refresh_token: 'old-refresh' },
    ]);
    expect(network.callsTo(ME)).toHaveLength(2);
    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBe('access-2');
    expect(localStorage.getItem(STORAGE_KEYS.refreshToken)).toBe('refresh-2');
    expect(onSessionExpired).not.toHaveBeenCalled();
  });

  it('shares one refresh among concurrent requests that get a 401', async () => {
    storeSession({ accessToken: 'old-access', refreshToken: 'old-refresh' });
    let releaseRefresh: () => void = () => undefined;
    const refreshGate = new Promise<void>((resolve) => {
      releaseRefresh = resolve;
    });
    const network = stubFetch()
      .on(ME, (call) =>
        call.headers.get('Authorization') === 'Bearer access-2'
          ? jsonResponse(200, providerUser)
          : jsonResponse(401, { message: 'Session expired' }),
      )
      .on(REFRESH, async () => {
        await refreshGate;
        return jsonResponse(200, authResponseFor(providerUser, '2'));
      });

    const requests = Promise.all([
      api.get(apiPaths.auth.me, userSchema),
      api.get(apiPaths.auth.me, userSchema),
      api.get(apiPaths.auth.me, userSchema),
    ]);
    await vi.waitFor(() => {
      expect(network.callsTo(REFRESH)).toHaveLength(1);
    });
    releaseRefresh();
    const users = await requests;

    expect(users.map((user) => user.id)).toEqual([
      providerUser.id,
      providerUser.id,
      providerUser.id,
    ]);
    expect(network.callsTo(REFRESH)).toHaveLength(1);
    expect(network.callsTo(ME)).toHaveLength(6);
  });

  it('does not refresh again when the retried request is refused too', async () => {
    storeSession();
    const network = stubFetch()
      .on(ME, () => jsonResponse(401, { message: 'Account disabled' }))
      .on(REFRESH, () => jsonResponse(200, authResponseFor(providerUser, '2')));

    const error = await rejectionOf(api.get(apiPaths.auth.me, userSchema));

    expect(error).toMatchObject({ status: 401, message: 'Account disabled' });
    expect(network.callsTo(REFRESH)).toHaveLength(1);
    expect(network.callsTo(ME)).toHaveLength(2);
  });

  it('signs out (clears all storage and calls the session-expired handler) when the refresh is refused', async () => {
    storeSession();
    sessionStorage.setItem('draft', 'kept until sign-out');
    const network = stubFetch()
      .on(ME, () => jsonResponse(401, { message: 'Session expired' }))
      .on(REFRESH, () => jsonResponse(401, { message: 'Refresh token revoked' }));

    const error = await rejectionOf(api.get(apiPaths.auth.me, userSchema));

    expect(error).toMatchObject({ status: 401, message: 'Session expired' });
    expect(onSessionExpired).toHaveBeenCalledTimes(1);
    expect(localStorage.length).toBe(0);
    expect(sessionStorage.length).toBe(0);
    expect(network.callsTo(ME)).toHaveLength(1);
  });

  it('signs out when a 401 arrives and no refresh token is stored', async () => {
    storeSession();
    localStorage.removeItem(STORAGE_KEYS.refreshToken);
    const network = stubFetch().on(ME, () => jsonResponse(401, { message: 'Session expired' }));

    await rejectionOf(api.get(apiPaths.auth.me, userSchema));

    expect(onSessionExpired).toHaveBeenCalledTimes(1);
    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBeNull();
    expect(network.callsTo(REFRESH)).toHaveLength(0);
  });

  it('keeps the session when the refresh call meets a server error', async () => {
    storeSession({ accessToken: 'old-access' });
    stubFetch()
      .on(ME, () => jsonResponse(401, { message: 'Session expired' }))
      .on(REFRESH, () => jsonResponse(503, { message: 'Service unavailable' }));

    const error = await rejectionOf(api.get(apiPaths.auth.me, userSchema));

    expect(error).toMatchObject({ status: 503, message: 'Service unavailable' });
    expect(onSessionExpired).not.toHaveBeenCalled();
    expect(localStorage.getItem(STORAGE_KEYS.accessToken)).toBe('old-access');
  });

  it('never tries to refresh for a 401 of a public call such as a failed sign-in', async () => {
    storeSession();
    const network = stubFetch().on(`POST ${apiPaths.auth.login}`, () =>
      jsonResponse(401, { message: 'Invalid email or password' }),
    );

    const error = await rejectionOf(api.post(apiPaths.auth.login, {}, z.unknown()));

    expect(error.message).toBe('Invalid email or password');
    expect(network.callsTo(REFRESH)).toHaveLength(0);
    expect(onSessionExpired).not.toHaveBeenCalled();
  });
});
