import {
  apiPaths,
  authResponseSchema,
  CLIENT_MESSAGES,
  ERROR_CODES,
  errorBodySchema,
  PUBLIC_API_PATHS,
} from '@fabric/contract';
import type { z } from 'zod';
import { paths } from '@/config/paths';
import { clearAllStorage, getAccessToken, getRefreshToken, saveSession } from './auth-storage';

// The one HTTP client of the web app. It alone reads tokens, adds the bearer header, turns a
// non-2xx answer into an ApiError carrying the server's message, parses every answer with the
// contract schema it is given, and renews an expired access token once before retrying.

export class ApiError extends Error {
  override readonly name = 'ApiError';
  /** HTTP status; 0 when no answer arrived. */
  readonly status: number;
  readonly code: string | undefined;
  /** The input the server blames, when it names one. */
  readonly field: string | undefined;
  /** The server's own message; undefined when the message is the client's fallback. */
  readonly serverMessage: string | undefined;

  constructor(options: {
    status: number;
    message?: string | undefined;
    code?: string | undefined;
    field?: string | undefined;
    cause?: unknown;
  }) {
    super(options.message ?? CLIENT_MESSAGES.apiRequestFailed, { cause: options.cause });
    this.status = options.status;
    this.code = options.code;
    this.field = options.field;
    this.serverMessage = options.message;
  }
}

/** The server's message for an error, else the screen's own fallback text. */
export function errorMessage(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.serverMessage ? error.serverMessage : fallback;
}

type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type QueryValue = string | number | boolean | undefined;

export interface RequestOptions<TSchema extends z.ZodType> {
  method?: HttpMethod;
  /** Sent as JSON. */
  body?: unknown;
  /** Undefined values are left out of the query string. */
  query?: Record<string, QueryValue>;
  /** The contract schema the answer must match. */
  schema: TSchema;
  signal?: AbortSignal | undefined;
  /** Extra request headers, such as an Idempotency-Key. */
  headers?: Record<string, string> | undefined;
}

let handleSessionExpired: () => void = () => {
  window.location.assign(paths.auth.signIn.href());
};

/**
 * What to do after a failed token refresh has cleared the session (the app clears its query cache
 * and navigates to sign-in). Returns a function that restores the previous handler.
 */
export function setSessionExpiredHandler(handler: () => void): () => void {
  const previous = handleSessionExpired;
  handleSessionExpired = handler;
  return () => {
    handleSessionExpired = previous;
  };
}

function expireSession(): void {
  clearAllStorage();
  handleSessionExpired();
}

function requiresAuth(path: string): boolean {
  return !PUBLIC_API_PATHS.includes(path);
}

function buildUrl(path: string, query: Record<string, QueryValue> | undefined): string {
  if (!query) return path;
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) search.set(key, String(value));
  }
  const queryString = search.toString();
  return queryString ? `${path}?${queryString}` : path;
}

async function send(
  url: string,
  method: HttpMethod,
  body: unknown,
  token: string | null,
  signal: AbortSignal | undefined,
  extraHeaders?: Record<string, string>,
): Promise<Response> {
  const headers = new Headers({ ...extraHeaders, Accept: 'application/json' });
  if (body !== undefined) headers.set('Content-Type', 'application/json');
  if (token) headers.set('Authorization', `Bearer ${token}`);
  try {
    return await fetch(url, {
      method,
      headers,
      body: body === undefined ? null : JSON.stringify(body),
      signal: signal ?? null,
    });
  } catch (error) {
    // Let cancellations stay cancellations; anything else is "no answer".
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError({ status: 0, cause: error });
  }
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

async function toApiError(response: Response): Promise<ApiError> {
  const parsed = errorBodySchema.safeParse(await readJson(response));
  if (!parsed.success) return new ApiError({ status: response.status });
  const { message, code, field } = parsed.data;
  return new ApiError({ status: response.status, message: message || undefined, code, field });
}

let refreshInFlight: Promise<string | null> | null = null;

/**
 * Trades the stored refresh token for a new pair. Concurrent callers share one request, because
 * refresh tokens rotate: a second request with the same token would be refused (and revoke the
 * family). Resolves with the new access token, or null when the server refused the refresh and
 * the session has been ended. A server that is down (no answer, 5xx) ends nothing: the caller
 * gets the error and the user stays signed in.
 */
function refreshAccessToken(refreshToken: string): Promise<string | null> {
  refreshInFlight ??= (async () => {
    const response = await send(
      apiPaths.auth.refresh,
      'POST',
      { refresh_token: refreshToken },
      null,
      undefined,
    );
    if (response.status >= 500) throw await toApiError(response);
    const parsed = response.ok ? authResponseSchema.safeParse(await readJson(response)) : null;
    if (!parsed?.success) {
      expireSession();
      return null;
    }
    saveSession(parsed.data);
    return parsed.data.access_token;
  })().finally(() => {
    refreshInFlight = null;
  });
  return refreshInFlight;
}

/** A usable access token after `rejectedToken` got a 401, or null once the session is over. */
async function renewAccessToken(rejectedToken: string): Promise<string | null> {
  const current = getAccessToken();
  // Signed out meanwhile (another request's refresh failed): nothing to renew.
  if (!current) return null;
  // Another request already renewed the session while this one was in flight.
  if (current !== rejectedToken) return current;
  const refreshToken = getRefreshToken();
  if (!refreshToken) {
    expireSession();
    return null;
  }
  return refreshAccessToken(refreshToken);
}

export async function apiRequest<TSchema extends z.ZodType>(
  path: string,
  options: RequestOptions<TSchema>,
): Promise<z.output<TSchema>> {
  const { method = 'GET', body, query, schema, signal, headers } = options;
  const url = buildUrl(path, query);
  const isAuthenticated = requiresAuth(path);

  let token: string | null = null;
  if (isAuthenticated) {
    token = getAccessToken();
    if (!token) {
      throw new ApiError({
        status: 401,
        message: CLIENT_MESSAGES.noToken,
        code: ERROR_CODES.unauthenticated,
      });
    }
  }

  let response = await send(url, method, body, token, signal, headers);

  if (isAuthenticated && token && response.status === 401) {
    const renewed = await renewAccessToken(token);
    if (renewed) response = await send(url, method, body, renewed, signal, headers);
  }

  if (!response.ok) throw await toApiError(response);

  const parsed = schema.safeParse(await readJson(response));
  if (!parsed.success) {
    throw new ApiError({ status: response.status, code: 'INVALID_RESPONSE', cause: parsed.error });
  }
  return parsed.data;
}

/**
 * Opens a streaming GET (server-sent events) with the bearer token, renewing an expired token
 * once like every other call. Resolves with the open response; the caller reads its body.
 * Rejects with an ApiError when the server refuses, or with status 401 once signed out.
 */
export async function openStream(path: string, signal: AbortSignal): Promise<Response> {
  const token = getAccessToken();
  if (!token) {
    throw new ApiError({
      status: 401,
      message: CLIENT_MESSAGES.noToken,
      code: ERROR_CODES.unauthenticated,
    });
  }
  const request = async (bearer: string) => {
    try {
      return await fetch(path, {
        headers: { Accept: 'text/event-stream', Authorization: `Bearer ${bearer}` },
        signal,
        cache: 'no-store',
      });
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') throw error;
      throw new ApiError({ status: 0, cause: error });
    }
  };
  let response = await request(token);
  if (response.status === 401) {
    const renewed = await renewAccessToken(token);
    if (renewed) response = await request(renewed);
  }
  if (!response.ok) throw await toApiError(response);
  return response;
}

type Options<TSchema extends z.ZodType> = Omit<
  RequestOptions<TSchema>,
  'method' | 'body' | 'schema'
>;

export const api = {
  get: <TSchema extends z.ZodType>(path: string, schema: TSchema, options?: Options<TSchema>) =>
    apiRequest(path, { ...options, method: 'GET', schema }),
  post: <TSchema extends z.ZodType>(
    path: string,
    body: unknown,
    schema: TSchema,
    options?: Options<TSchema>,
  ) => apiRequest(path, { ...options, method: 'POST', body, schema }),
  put: <TSchema extends z.ZodType>(
    path: string,
    body: unknown,
    schema: TSchema,
    options?: Options<TSchema>,
  ) => apiRequest(path, { ...options, method: 'PUT', body, schema }),
  delete: <TSchema extends z.ZodType>(path: string, schema: TSchema, options?: Options<TSchema>) =>
    apiRequest(path, { ...options, method: 'DELETE', schema }),
};
