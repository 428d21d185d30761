import { StreamNotFoundError, type EventRegistry, type EventStore } from '../../../platform/src/index.js';
import { verificationStream } from '../domain/verification.js';

/** Verifications in one page of a customer's copy at most (issue 30); `next_cursor` asks for the rest. */
export const CUSTOMER_VERIFICATIONS_LIMIT = 1000;

/**
 * Every verification of one customer as the identity context keeps it
 * (issue 30, the data subject's copy): KYC and proximity results with what
 * the caller sent, and the certificates issued (the compact JWS as issued).
 * Erasure never touches them (interface.md, "Consent states"). Identity
 * publishes this; compliance calls it and never reads the stream itself.
 * Paged by the stream's revision: `cursor` is a previous page's
 * `next_cursor` (null on the last page), so nothing is dropped.
 */
export async function customerVerifications(
  events: EventStore,
  registry: EventRegistry,
  accountId: string,
  customerId: string,
  page: { cursor?: string | null; limit?: number } = {},
): Promise<{ items: Array<Record<string, unknown>>; total: number; truncated: boolean; next_cursor: string | null }> {
  const limit = Math.min(page.limit ?? CUSTOMER_VERIFICATIONS_LIMIT, CUSTOMER_VERIFICATIONS_LIMIT);
  let stored;
  try {
    stored = await events.readStream(verificationStream(accountId, customerId), { fromRevision: page.cursor ? BigInt(page.cursor) : 0n, maxCount: limit + 1 });
  } catch (error) {
    if (error instanceof StreamNotFoundError) return { items: [], total: 0, truncated: false, next_cursor: null };
    throw error;
  }
  const items = stored.slice(0, limit).map((event) => {
    const { account_id: _account, ...data } = registry.upcast(event).data as Record<string, unknown>;
    return { type: event.type, ...data };
  });
  const next = stored.length > limit ? stored[limit].revision.toString() : null;
  return { items, total: items.length, truncated: next !== null, next_cursor: next };
}
