import type { CustomerPseudonymPort } from '../../../monitoring/src/index.js';
import { customerDataKeySubject, SealedFields, type CodecSession, type DataKey, type DataKeyVault, type NewEvent, type RecordedEvent, type StreamCodec } from '../../../platform/src/index.js';
import { scheduleStream, type ScheduleState } from '../domain/schedule.js';
import { BORROWER_REF_SUBJECT, BorrowerEventSealing, orNothing } from '../sealing/borrower-sealing.js';

const SCHEDULED = 'ReverificationScheduled';

/**
 * A `ReverificationScheduled` as stored since issue 47 (docs/adr/0055): the
 * `address` verified (a hex code from the loan zone or the last KYC, or
 * text) sealed (`sealed`, AES-256-GCM bound to the schedule's stream and the
 * event type) under the customer's data key (`customerDataKeySubject`, which
 * POST /v2/consent/delete-data destroys), with monitoring's keyed
 * `pseudonym` of the customer and `customer_ref` (the customer id sealed
 * under banking's own key, the one loans use for `borrower_ref`) for the read
 * model, which copies these as they are.
 */
export interface SealedScheduleData extends Record<string, unknown> {
  account_id: string;
  schedule_id: string;
  customer_id: string;
  pseudonym: string;
  customer_ref: string;
  key_id: string;
  sealed: string;
}

export function isSealedSchedule(data: Readonly<Record<string, unknown>>): data is SealedScheduleData {
  return typeof data.sealed === 'string' && typeof data.key_id === 'string' && typeof data.customer_ref === 'string';
}

/** What a read-model document holds sealed, copied from the stored `ReverificationScheduled`. */
export interface SealedScheduleAddress {
  account_id: string;
  schedule_id: string;
  customer_ref: string;
  key_id: string | null;
  sealed: string | null;
}

/**
 * Seals and opens re-verification schedules (ADR 12's crypto-shredding, as
 * loan zones are sealed: docs/adr/0055). The address a schedule verifies
 * places its customer: it is stored sealed under their data key in the log
 * and in the `reverification_schedules` read model, so after an erasure it
 * reads as null everywhere, Kafka and freed pages included. Unlike a loan, an
 * erased schedule stays in the fold: it says it stopped (`data_erased`), with
 * no address. Schedules stored before keep their address as stored.
 */
export class ScheduleSealing {
  private readonly events: BorrowerEventSealing;

  constructor(
    private readonly vault: DataKeyVault,
    refKey: DataKey,
    pseudonyms: CustomerPseudonymPort,
  ) {
    // The address, which places the customer, is sealed under their data key; the id under banking's own key.
    this.events = new BorrowerEventSealing(vault, refKey, pseudonyms, {
      type: SCHEDULED,
      sealed: new Set(['address']),
      refField: 'customer_ref',
      refContext: (accountId) => `reverification_schedule_ref|${accountId}`,
    });
  }

  static async open(vault: DataKeyVault, pseudonyms: CustomerPseudonymPort): Promise<ScheduleSealing> {
    return new ScheduleSealing(vault, await vault.obtain(BORROWER_REF_SUBJECT), pseudonyms);
  }

  /** Monitoring's keyed pseudonym of a customer (the read model finds a customer's schedules by it). */
  pseudonymOf(accountId: string, customerId: string): string {
    return this.events.pseudonymOf(accountId, customerId);
  }

  /** The stored form of a decided event (already stamped with its schema version). */
  seal(stream: string, event: NewEvent): Promise<NewEvent> {
    return this.events.seal(stream, event);
  }

  /** The event as decided; once the customer's key was destroyed (an erasure), without its address (null). */
  async open(event: Pick<RecordedEvent, 'type' | 'data' | 'streamName'>): Promise<Record<string, unknown>> {
    const stored = event.data;
    if (!isSealedSchedule(stored)) return stored;
    return (await this.events.openSealed(event, stored)) ?? { ...this.events.clearPart(stored), address: null };
  }

  /** A read-model document's address; null once an erasure destroyed the key (or emptied the document). */
  async openAddress(doc: SealedScheduleAddress): Promise<string | null> {
    if (doc.key_id === null || doc.sealed === null) return null;
    const customerId = this.customerOf(doc.account_id, doc.customer_ref);
    if (customerId === undefined) return null;
    const key = await this.vault.find(customerDataKeySubject(doc.account_id, customerId), doc.key_id);
    if (!key) return null;
    const sealed = orNothing(() => this.events.fields.openValue<{ address?: unknown }>(key, SealedFields.context(scheduleStream(doc.account_id, doc.schedule_id), SCHEDULED), doc.sealed!));
    return typeof sealed?.address === 'string' ? sealed.address : null;
  }

  /** The customer id of a read-model document (banking's own key: no customer key is needed). */
  customerOf(accountId: string, customerRef: string): string | undefined {
    return this.events.customerOf(accountId, customerRef);
  }

  /** The codec under the schedule streams: decide → seal → append, decode → open → upcast → evolve. */
  codec(): StreamCodec<ScheduleState> {
    return {
      session: (stream): CodecSession<ScheduleState> => ({
        open: async (event) => ({ ...event, data: await this.open(event) }),
        seal: (event) => this.seal(stream, event),
      }),
    };
  }
}
