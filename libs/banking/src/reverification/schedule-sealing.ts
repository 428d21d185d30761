import type { CustomerPseudonymPort } from '../../../monitoring/src/index.js';
import {
  customerDataKeySubject,
  SealedFields,
  SealedSecretError,
  type CodecSession,
  type DataKey,
  type DataKeyVault,
  type NewEvent,
  type RecordedEvent,
  type StreamCodec,
} from '../../../platform/src/index.js';
import { scheduleStream, type ScheduleState } from '../domain/schedule.js';
import { BORROWER_REF_SUBJECT } from '../loans/loan-sealing.js';

/** Fields of a `ReverificationScheduled` sealed under the customer's data key: the address, which places them. */
const SEALED_FIELDS: ReadonlySet<string> = new Set(['address']);
/** Stored fields that are not the event's own data. */
const ENVELOPE = ['key_id', 'pseudonym', 'customer_ref'] as const;
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

const refContext = (accountId: string) => `reverification_schedule_ref|${accountId}`;

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
  private readonly fields = new SealedFields();

  constructor(
    private readonly vault: DataKeyVault,
    private readonly refKey: DataKey,
    private readonly pseudonyms: CustomerPseudonymPort,
  ) {}

  static async open(vault: DataKeyVault, pseudonyms: CustomerPseudonymPort): Promise<ScheduleSealing> {
    return new ScheduleSealing(vault, await vault.obtain(BORROWER_REF_SUBJECT), pseudonyms);
  }

  /** Monitoring's keyed pseudonym of a customer (the read model finds a customer's schedules by it). */
  pseudonymOf(accountId: string, customerId: string): string {
    return this.pseudonyms.of(accountId, customerId);
  }

  /** The stored form of a decided event (already stamped with its schema version). */
  async seal(stream: string, event: NewEvent): Promise<NewEvent> {
    if (event.type !== SCHEDULED) return event;
    const accountId = String(event.data.account_id);
    const customerId = String(event.data.customer_id);
    // Created on first use, as for a loan: the key is the one an erasure of this customer destroys.
    const key = await this.vault.obtain(customerDataKeySubject(accountId, customerId));
    const envelope = {
      pseudonym: this.pseudonyms.of(accountId, customerId),
      customer_ref: this.fields.sealValue(this.refKey, refContext(accountId), customerId),
      key_id: key.id,
    };
    return { ...event, data: this.fields.seal(key, SealedFields.context(stream, event.type), event.data, (field) => !SEALED_FIELDS.has(field), envelope) };
  }

  /** The event as decided; once the customer's key was destroyed (an erasure), without its address (null). */
  async open(event: Pick<RecordedEvent, 'type' | 'data' | 'streamName'>): Promise<Record<string, unknown>> {
    const stored = event.data;
    if (!isSealedSchedule(stored)) return stored;
    const key = await this.vault.find(customerDataKeySubject(stored.account_id, stored.customer_id), stored.key_id);
    const opened = key && this.orNothing(() => this.fields.open(key, SealedFields.context(event.streamName, event.type), stored, ENVELOPE));
    if (opened) return opened;
    const clear = Object.fromEntries(Object.entries(stored).filter(([field]) => field !== 'sealed' && !(ENVELOPE as readonly string[]).includes(field)));
    return { ...clear, address: null };
  }

  /** A read-model document's address; null once an erasure destroyed the key (or emptied the document). */
  async openAddress(doc: SealedScheduleAddress): Promise<string | null> {
    if (doc.key_id === null || doc.sealed === null) return null;
    const customerId = this.customerOf(doc.account_id, doc.customer_ref);
    if (customerId === undefined) return null;
    const key = await this.vault.find(customerDataKeySubject(doc.account_id, customerId), doc.key_id);
    if (!key) return null;
    const sealed = this.orNothing(() => this.fields.openValue<{ address?: unknown }>(key, SealedFields.context(scheduleStream(doc.account_id, doc.schedule_id), SCHEDULED), doc.sealed!));
    return typeof sealed?.address === 'string' ? sealed.address : null;
  }

  /** The customer id of a read-model document (banking's own key: no customer key is needed). */
  customerOf(accountId: string, customerRef: string): string | undefined {
    return this.orNothing(() => this.fields.openValue<string>(this.refKey, refContext(accountId), customerRef));
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

  private orNothing<T>(open: () => T): T | undefined {
    try {
      return open();
    } catch (error) {
      if (error instanceof SealedSecretError) return undefined;
      throw error;
    }
  }
}
