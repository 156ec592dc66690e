/**
 * A fresh Idempotency-Key: one per user action, sent again with its retries so the server does
 * the action once. `crypto.randomUUID` exists only in secure contexts (https, localhost); the app
 * opened at http://<LAN address> has `crypto.getRandomValues` alone, so the key is built from it.
 */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  // RFC 9562 version 4 layout, so the key reads like any other UUID.
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
