import { readFileSync } from 'node:fs';

// Recorded Stripe API answers (src/payments/fixtures/stripe/), for tests that put a Stripe
// emulator behind the app's stripeFetch.

export function recordedStripe(name: string): string {
  return readFileSync(
    new URL(`../../src/payments/fixtures/stripe/${name}.json`, import.meta.url),
    'utf8',
  );
}

/** The card of the recorded paid session (a debit card, so it can receive payouts too). */
export const RECORDED_CARD_FINGERPRINT = 'Xt5EWLLDS7FJjR1c';

const SESSION_RETRIEVE =
  /\/v1\/checkout\/sessions\/([^/?]+)\?expand\[\]=payment_intent\.payment_method$/;

/**
 * Stripe's answer to retrieving a paid Checkout Session with its payment method expanded, paid
 * with the card `fingerprint`; undefined when `url` asks for something else.
 */
export function paidSessionAnswer(
  url: string,
  fingerprint = RECORDED_CARD_FINGERPRINT,
): Response | undefined {
  const match = SESSION_RETRIEVE.exec(url);
  if (!match) return undefined;
  const session = JSON.parse(recordedStripe('checkout-session-paid-expanded')) as {
    id: string;
    payment_intent: { payment_method: { card: { fingerprint: string } } };
  };
  session.id = decodeURIComponent(match[1] ?? '');
  session.payment_intent.payment_method.card.fingerprint = fingerprint;
  return new Response(JSON.stringify(session), { status: 200 });
}

export function requestUrl(input: string | URL | Request): string {
  return typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
}
