import { Inject, Injectable } from '@nestjs/common';
import { CustomerVerifications } from '../../../../identity/src/index.js';
import { CUSTOMER_LOCATIONS, type CustomerLocations, type CustomerRecords } from '../../../../monitoring/src/index.js';
import { CLOCK, InvalidCursorError, InvalidParamError, type Clock, type Config, type RateLimiter } from '../../../../platform/src/index.js';
import { CustomerDeliveries } from '../../../../webhooks/src/index.js';
import { CheckpointScheduler } from '../../checkpoints/checkpoint-scheduler.js';
import { CustomerCopyRateLimitedError } from '../../domain/errors.js';
import { consentsAfterErasure, verificationsAfterErasure } from './after-erasure.js';

const HOUR_MS = 60 * 60 * 1000;

export const CUSTOMER_COPY_FORMAT = 'customer-copy/1';
export const CUSTOMER_COPY_TYP = 'customer-copy';

/**
 * Everything the calling account holds about one customer (issue 30; the
 * data subject's right of access, Ghana's Data Protection Act 2012, Act 843).
 * Each context answers for its own records through what it publishes:
 * monitoring (consents as stored, with their receipt when one was issued;
 * the location history or the fact of its erasure), identity (verifications
 * and certificates), webhooks (deliveries naming the customer). After an
 * erasure, what was recorded before it shows only the facts the law keeps
 * (after-erasure.ts), never a position or a fix (customer-copies.ts makes it).
 * With `Prefer: respond-async` the copy is a job (customer-copy.job.ts).
 */
export interface CustomerCopy {
  format: typeof CUSTOMER_COPY_FORMAT;
  account_id: string;
  customer_id: string;
  generated_at: string;
  consents: CustomerRecords['consents'];
  /** Null unless the customer's location data was erased; then no coordinate is held, and none is shown. */
  erasure: CustomerRecords['erasure'];
  /**
   * The three long sections are paginated, each by its own cursor: a page
   * holds at most `limit` records of each, and `next_cursor` (null on the
   * last page; `truncated` says the same) asks for the next. Consents and the
   * erasure record are bounded and repeat on every page.
   */
  location_history: { items: CustomerRecords['history']; unreadable: number; cursor: string | null; next_cursor: string | null };
  verifications: { items: Array<Record<string, unknown>>; cursor: string | null; truncated: boolean; next_cursor: string | null };
  webhook_deliveries: { items: unknown[]; cursor: string | null; truncated: boolean; next_cursor: string | null };
}

/** The copy with its signature: `jws` is a compact JWS (EdDSA) whose payload is `document`; check it with GET /v2/.well-known/jwks.json alone. */
export interface SignedCustomerCopy {
  document: CustomerCopy;
  kid: string;
  jws: string;
}

/** Which page of each paginated section a copy is: the location history's cursor, the verifications' and the deliveries'. */
export interface CopyPage {
  cursor: string | null;
  limit: number;
  cursors: { verifications: string | null; deliveries: string | null };
}

/**
 * ACCESS_REQUESTS_PER_ACCOUNT_PER_HOUR copies per account per hour, answered
 * at once or accepted as a job: a copy asked for is counted when it is asked
 * for (then 429 RATE_LIMITED with Retry-After).
 */
export async function takeCopyAllowance(limiter: RateLimiter, config: Pick<Config, 'accessRequestsPerAccountPerHour'>, clock: Clock, accountId: string): Promise<void> {
  const decision = await limiter.consume(`customer_copy:${accountId}`, { limit: config.accessRequestsPerAccountPerHour, windowMs: HOUR_MS }, clock.now());
  if (!decision.allowed) throw new CustomerCopyRateLimitedError(Math.ceil(decision.retryAfterMs / 1000));
}

/**
 * Makes and signs one page of a customer's copy (the synchronous answer of
 * POST /v2/consent/access-request, and the `customer.copy` job's result).
 * Each context answers for its own records through what it publishes:
 * monitoring (consents as stored, with their receipt when one was issued;
 * the location history or the fact of its erasure), identity (verifications
 * and certificates), webhooks (deliveries naming the customer). After an
 * erasure, what was recorded before it shows only the facts the law keeps
 * (after-erasure.ts), never a position or a fix. One provider, injected by
 * the synchronous handler and by the `customer.copy` job alike.
 */
@Injectable()
export class CustomerCopies {
  constructor(
    @Inject(CUSTOMER_LOCATIONS) private readonly locations: CustomerLocations,
    // Identity's port: it opens its verifications with the customer's data key (ADR 0054).
    private readonly verifications: CustomerVerifications,
    private readonly deliveries: CustomerDeliveries,
    private readonly signer: CheckpointScheduler,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async make(accountId: string, customerId: string, { cursor, limit, cursors }: CopyPage): Promise<SignedCustomerCopy> {
    const now = this.clock.now();
    const [records, verifications, deliveries] = await Promise.all([
      this.locations.customerRecords(accountId, customerId, cursor, limit),
      this.verifications.of(accountId, customerId, { cursor: cursors.verifications, limit }),
      this.deliveries.of(accountId, customerId, { cursor: cursors.deliveries, limit }).catch((error: unknown) => {
        // The read store's cursor is opaque: one that is not its own is the caller's field.
        if (error instanceof InvalidCursorError) throw new InvalidParamError('deliveries_cursor is not a cursor this list gave', 'deliveries_cursor');
        throw error;
      }),
    ]);
    // Once erased, records made before the erasure show what the law keeps, never a position (after-erasure.ts).
    const erasure = records.erasure;
    const document: CustomerCopy = {
      format: CUSTOMER_COPY_FORMAT,
      account_id: accountId,
      customer_id: customerId,
      generated_at: now.toISOString(),
      consents: erasure ? consentsAfterErasure(records.consents) : records.consents,
      erasure,
      location_history: { items: records.history, unreadable: records.unreadable, cursor, next_cursor: records.next_cursor },
      verifications: {
        items: erasure ? verificationsAfterErasure(verifications.items, erasure.erased_at) : verifications.items,
        cursor: cursors.verifications,
        truncated: verifications.truncated,
        next_cursor: verifications.next_cursor,
      },
      webhook_deliveries: { items: deliveries.items, cursor: cursors.deliveries, truncated: deliveries.truncated, next_cursor: deliveries.next_cursor },
    };
    return { document, ...(await this.signer.signDocument(CUSTOMER_COPY_TYP, document)) };
  }
}
