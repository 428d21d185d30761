import { StreamNotFoundError, type EventRegistry, type EventStore } from '../../../platform/src/index.js';
import { verificationStream } from '../domain/verification.js';

/** Verifications read for one customer's copy at most; a customer with more is told the count (issue 30). */
export const CUSTOMER_VERIFICATIONS_LIMIT = 1000;

/**
 * Every verification of one customer as the identity context keeps it
 * (issue 30, the data subject's copy): KYC and proximity results with what
 * the caller sent, and the certificates issued (the compact JWS as issued).
 * Erasure never touches them (interface.md, "Consent states"). Identity
 * publishes this; compliance calls it and never reads the stream itself.
 */
export async function customerVerifications(
  events: EventStore,
  registry: EventRegistry,
  accountId: string,
  customerId: string,
): Promise<{ items: Array<Record<string, unknown>>; total: number; truncated: boolean }> {
  let stored;
  try {
    stored = await events.readStream(verificationStream(accountId, customerId), { maxCount: CUSTOMER_VERIFICATIONS_LIMIT + 1 });
  } catch (error) {
    if (error instanceof StreamNotFoundError) return { items: [], total: 0, truncated: false };
    throw error;
  }
  const items = stored.slice(0, CUSTOMER_VERIFICATIONS_LIMIT).map((event) => {
    const { account_id: _account, ...data } = registry.upcast(event).data as Record<string, unknown>;
    return { type: event.type, ...data };
  });
  return { items, total: items.length, truncated: stored.length > CUSTOMER_VERIFICATIONS_LIMIT };
}
