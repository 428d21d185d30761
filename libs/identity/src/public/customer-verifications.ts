import { Inject, Injectable, Module } from '@nestjs/common';
import { DATA_KEY_VAULT, EVENT_STORE, EventRegistry, StreamNotFoundError, type DataKeyVault, type EventStore } from '../../../platform/src/index.js';
import { verificationStream } from '../domain/verification.js';
import { IdentityFieldOpener, type KeyLookups } from '../sealing/identity-sealing.js';

/** Verifications in one page of a customer's copy at most (issue 30); `next_cursor` asks for the rest. */
export const CUSTOMER_VERIFICATIONS_LIMIT = 1000;

/** One page of a customer's verifications (`CustomerVerifications.of`). */
export interface CustomerVerificationPage {
  items: Array<Record<string, unknown>>;
  total: number;
  truncated: boolean;
  next_cursor: string | null;
}

/**
 * The port through which another context reads one customer's verifications
 * (compliance's customer copy, issue 30): identity reads its own stream and
 * opens it with the customer's data key; the reader names no stream of
 * identity's (issue 52). `of` answers as `customerVerifications` below.
 */
export abstract class CustomerVerifications {
  abstract of(accountId: string, customerId: string, page?: { cursor?: string | null; limit?: number }): Promise<CustomerVerificationPage>;
}

/** The port's implementation over the event store and the data-key vault. */
@Injectable()
export class StoreCustomerVerifications extends CustomerVerifications {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly registry: EventRegistry,
    @Inject(DATA_KEY_VAULT) private readonly vault: DataKeyVault,
  ) {
    super();
  }

  of(accountId: string, customerId: string, page: { cursor?: string | null; limit?: number } = {}): Promise<CustomerVerificationPage> {
    return customerVerifications(this.events, this.registry, this.vault, accountId, customerId, page);
  }
}

/** The CustomerVerifications port in any role (compliance's api handler and its customer-copy job in the worker). */
@Module({
  providers: [{ provide: CustomerVerifications, useClass: StoreCustomerVerifications }],
  exports: [CustomerVerifications],
})
export class CustomerVerificationsModule {}

/**
 * Every verification of one customer as the identity context keeps it
 * (issue 30, the data subject's copy): KYC and proximity results with what
 * the caller sent, and the certificates issued (the compact JWS as issued),
 * opened with the customer's data key (ADR 0054). After an erasure destroyed
 * that key, a verification shows what stays: ids, time, the decision, its
 * reasons and evidence counts, the fraud check, the certificate's id, key,
 * times and SHA-256, and `location_erased: true`; never the address, a
 * position, a fix or the JWS. Identity publishes this; compliance calls it
 * and never reads the stream itself. Paged by the stream's revision:
 * `cursor` is a previous page's `next_cursor` (null on the last page), so
 * nothing is dropped.
 */
export async function customerVerifications(
  events: EventStore,
  registry: EventRegistry,
  vault: DataKeyVault,
  accountId: string,
  customerId: string,
  page: { cursor?: string | null; limit?: number } = {},
): Promise<CustomerVerificationPage> {
  const limit = Math.min(page.limit ?? CUSTOMER_VERIFICATIONS_LIMIT, CUSTOMER_VERIFICATIONS_LIMIT);
  let stored;
  try {
    stored = await events.readStream(verificationStream(accountId, customerId), { fromRevision: page.cursor ? BigInt(page.cursor) : 0n, maxCount: limit + 1 });
  } catch (error) {
    if (error instanceof StreamNotFoundError) return { items: [], total: 0, truncated: false, next_cursor: null };
    throw error;
  }
  const opener = new IdentityFieldOpener(vault);
  const keys: KeyLookups = new Map();
  const items = await Promise.all(
    stored.slice(0, limit).map(async (event) => {
      const { account_id: _account, ...data } = registry.upcast({ ...event, data: await opener.open(event, keys) }).data;
      return { type: event.type, ...data };
    }),
  );
  const next = stored.length > limit ? stored[limit].revision.toString() : null;
  return { items, total: items.length, truncated: next !== null, next_cursor: next };
}

/**
 * The address code of the customer's latest KYC verification, opened with
 * the customer's data key (banking's re-verification schedule by customer);
 * undefined when there is none, or when it was erased with the customer's
 * location data.
 */
export async function lastVerifiedAddressCode(events: EventStore, vault: DataKeyVault, accountId: string, customerId: string): Promise<string | undefined> {
  let recent;
  try {
    recent = await events.readStream(verificationStream(accountId, customerId), { direction: 'backwards', maxCount: 100 });
  } catch (error) {
    if (error instanceof StreamNotFoundError) return undefined;
    throw error;
  }
  const found = recent.find((event) => event.type === 'AddressVerified');
  if (!found) return undefined;
  const data = await new IdentityFieldOpener(vault).open(found);
  const code = (data.address as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}
