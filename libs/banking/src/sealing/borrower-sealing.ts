import type { CustomerPseudonymPort } from '../../../monitoring/src/index.js';
import { customerDataKeySubject, SealedFields, SealedSecretError, type DataKey, type DataKeyVault, type NewEvent, type RecordedEvent } from '../../../platform/src/index.js';

/** The vault subject of banking's own key, which seals borrower ids beside their sealed terms (never destroyed). */
export const BORROWER_REF_SUBJECT = '#banking/borrower-refs';

/** How one kind of event names its customer and what of it is sealed. */
export interface BorrowerEventKind {
  /** The stored type sealed; every other type passes as it is. */
  type: string;
  /** Fields sealed under the customer's data key: what places them. */
  sealed: ReadonlySet<string>;
  /** The envelope field that holds the customer id sealed under banking's own key (`borrower_ref`, `customer_ref`). */
  refField: string;
  /** Binds a sealed id to its account: it cannot be moved to another account's document. */
  refContext: (accountId: string) => string;
}

/** The value, or undefined when it was sealed under another key or context, or altered. */
export function orNothing<T>(open: () => T): T | undefined {
  try {
    return open();
  } catch (error) {
    if (error instanceof SealedSecretError) return undefined;
    throw error;
  }
}

/**
 * What banking's sealed events share (ADR 12's crypto-shredding, docs/adr/0055):
 * an event of `kind.type` is stored with the fields that place its customer
 * sealed under the customer's data key (`customerDataKeySubject`, which
 * POST /v2/consent/delete-data destroys), bound to its stream and type, and an
 * envelope of monitoring's keyed pseudonym, the customer id sealed under
 * banking's own key, and the key id. Loans and re-verification schedules
 * differ only in what they do once the key is gone.
 */
export class BorrowerEventSealing {
  readonly fields = new SealedFields();
  private readonly envelope: readonly string[];

  constructor(
    readonly vault: DataKeyVault,
    private readonly refKey: DataKey,
    private readonly pseudonyms: CustomerPseudonymPort,
    private readonly kind: BorrowerEventKind,
  ) {
    this.envelope = ['key_id', 'pseudonym', kind.refField];
  }

  pseudonymOf(accountId: string, customerId: string): string {
    return this.pseudonyms.of(accountId, customerId);
  }

  /** The stored form of a decided event (already stamped with its schema version). */
  async seal(stream: string, event: NewEvent): Promise<NewEvent> {
    if (event.type !== this.kind.type) return event;
    const accountId = String(event.data.account_id);
    const customerId = String(event.data.customer_id);
    // Created on first use: a registration needs no consent, and the key is the one an erasure of this customer destroys.
    const key = await this.vault.obtain(customerDataKeySubject(accountId, customerId));
    const envelope = {
      pseudonym: this.pseudonymOf(accountId, customerId),
      [this.kind.refField]: this.fields.sealValue(this.refKey, this.kind.refContext(accountId), customerId),
      key_id: key.id,
    };
    return { ...event, data: this.fields.seal(key, SealedFields.context(stream, event.type), event.data, (field) => !this.kind.sealed.has(field), envelope) };
  }

  /** A sealed event's data as decided; undefined once the customer's key was destroyed (or the value does not open). */
  async openSealed(event: Pick<RecordedEvent, 'type' | 'data' | 'streamName'>, stored: { account_id: string; customer_id: string; key_id: string }): Promise<Record<string, unknown> | undefined> {
    const key = await this.vault.find(customerDataKeySubject(stored.account_id, stored.customer_id), stored.key_id);
    if (!key) return undefined;
    return orNothing(() => this.fields.open(key, SealedFields.context(event.streamName, event.type), event.data, this.envelope));
  }

  /** The stored data without the envelope and the sealed value: what stays readable after an erasure. */
  clearPart(stored: Readonly<Record<string, unknown>>): Record<string, unknown> {
    return Object.fromEntries(Object.entries(stored).filter(([field]) => field !== 'sealed' && !this.envelope.includes(field)));
  }

  /** The customer id of a read-model document (banking's own key: no customer key is needed). */
  customerOf(accountId: string, ref: string): string | undefined {
    return orNothing(() => this.fields.openValue<string>(this.refKey, this.kind.refContext(accountId), ref));
  }
}
