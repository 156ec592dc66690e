import { z } from 'zod';

/** Every non-2xx answer of the API has this body; `field` names the input at fault when there is one. */
export const errorBodySchema = z.object({
  message: z.string(),
  code: z.string().optional(),
  field: z.string().optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** Stable machine-readable codes that accompany `message`. */
export const ERROR_CODES = {
  validation: 'VALIDATION_FAILED',
  unauthenticated: 'UNAUTHENTICATED',
  forbidden: 'FORBIDDEN',
  notFound: 'NOT_FOUND',
  conflict: 'CONFLICT',
  rateLimited: 'RATE_LIMITED',
  invalidCredentials: 'INVALID_CREDENTIALS',
  invalidToken: 'INVALID_TOKEN',
  /** The access token has expired: refresh it, or sign in again. */
  sessionExpired: 'SESSION_EXPIRED',
  /** Agent calls: the device token is unknown, replaced by a newer enrollment, or its node was unenrolled. */
  invalidDeviceToken: 'INVALID_DEVICE_TOKEN',
  /** Agent calls: the lease was taken back (expired, cancelled, re-leased); stop working on the job. */
  leaseNotValid: 'LEASE_NOT_VALID',
  invalidJson: 'INVALID_JSON',
  /** Not enough credits for the hold of a job, or not enough available balance for a payout. */
  insufficientFunds: 'INSUFFICIENT_FUNDS',
  /** Payouts need a connected bank account with payouts enabled. */
  payoutsNotEnabled: 'PAYOUTS_NOT_ENABLED',
  /** The same Idempotency-Key was used before with a different request. */
  idempotencyConflict: 'IDEMPOTENCY_CONFLICT',
  unsupportedMediaType: 'UNSUPPORTED_MEDIA_TYPE',
  payloadTooLarge: 'PAYLOAD_TOO_LARGE',
  unavailable: 'UNAVAILABLE',
  internal: 'INTERNAL',
} as const;

/** Texts of spec section 8 used by the web client when the server gives none. */
export const CLIENT_MESSAGES = {
  apiRequestFailed: 'API request failed',
  noToken: 'No authentication token found. Please sign in.',
} as const;
