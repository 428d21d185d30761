import type { CustomerPseudonymPort } from '../../../monitoring/src/index.js';
import { customerDataKeySubject, SealedFields, type CodecSession, type DataKey, type DataKeyVault, type NewEvent, type RecordedEvent, type StreamCodec } from '../../../platform/src/index.js';
import { BORROWER_REF_SUBJECT, BorrowerEventSealing, orNothing } from '../sealing/borrower-sealing.js';
import { loanStream, type CollectionZone, type LoanState } from '../domain/loan.js';

export { BORROWER_REF_SUBJECT } from '../sealing/borrower-sealing.js';

const REGISTERED = 'CollectionLoanRegistered';
/** Terms opened from read-model documents, by their sealed value; past this the cache starts afresh. */
const OPENED_CACHE_LIMIT = 200_000;

/**
 * A registration as stored since issue 47 (docs/adr/0055): the zone and its
 * anchor sealed (`sealed`, AES-256-GCM, bound to the loan's stream and the
 * event type) under the borrower's own data key (`customerDataKeySubject`,
 * the key monitoring seals their pings under, which POST
 * /v2/consent/delete-data destroys), with monitoring's keyed `pseudonym` of
 * the borrower and `borrower_ref` (the borrower id sealed under banking's
 * own key) for the read model, which copies these three as they are.
 */
export interface SealedLoanData extends Record<string, unknown> {
  account_id: string;
  loan_id: string;
  customer_id: string;
  pseudonym: string;
  borrower_ref: string;
  key_id: string;
  sealed: string;
  expected_collection_days: number | null;
  registered_at: string;
}

export function isSealedLoan(data: Readonly<Record<string, unknown>>): data is SealedLoanData {
  return typeof data.sealed === 'string' && typeof data.key_id === 'string';
}

/** What a read-model document holds sealed, as stored in the registration. */
export interface SealedLoanTerms {
  account_id: string;
  loan_id: string;
  key_id: string;
  sealed: string;
  borrower_ref: string;
}

/** A loan's terms opened from the read model. */
export interface OpenedTerms {
  customer_id: string;
  zone: CollectionZone;
  anchor: { lat: number; lng: number };
}


/**
 * Seals and opens the banking context's loan registrations (ADR 12's
 * crypto-shredding, docs/adr/0055). The zone a loan is collected in places its
 * borrower as surely as a ping: it is stored sealed under the borrower's data
 * key, in the event log and in the `collection_loans` read model, so an
 * erasure leaves it unreadable everywhere, Kafka and freed pages included.
 * Registrations stored before (the zone in the clear) are read as they are.
 */
export class LoanSealing {
  private readonly events: BorrowerEventSealing;
  private readonly opened = new Map<string, OpenedTerms>();

  constructor(
    private readonly vault: DataKeyVault,
    refKey: DataKey,
    pseudonyms: CustomerPseudonymPort,
  ) {
    // Fields of a registration sealed under the borrower's data key: everything that places them.
    this.events = new BorrowerEventSealing(vault, refKey, pseudonyms, {
      type: REGISTERED,
      sealed: new Set(['zone', 'anchor']),
      refField: 'borrower_ref',
      refContext: (accountId) => `collection_loan_ref|${accountId}`,
    });
  }

  static async open(vault: DataKeyVault, pseudonyms: CustomerPseudonymPort): Promise<LoanSealing> {
    return new LoanSealing(vault, await vault.obtain(BORROWER_REF_SUBJECT), pseudonyms);
  }

  /** The stored form of a decided event (already stamped with its schema version). */
  seal(stream: string, event: NewEvent): Promise<NewEvent> {
    return this.events.seal(stream, event);
  }

  /** The registration as decided; undefined once the borrower's key was destroyed (an erasure): it leaves the fold. */
  async open(event: Pick<RecordedEvent, 'type' | 'data' | 'streamName'>): Promise<Record<string, unknown> | undefined> {
    const stored = event.data;
    if (!isSealedLoan(stored)) return stored;
    return this.events.openSealed(event, stored);
  }

  /** A read-model document's borrower and zone; undefined once an erasure destroyed the key (or the value does not open). */
  async openTerms(terms: SealedLoanTerms): Promise<OpenedTerms | undefined> {
    const cached = this.opened.get(terms.sealed);
    if (cached) {
      // Opened before, answered only while the key still exists (the vault's own cache: a map lookup): an erasure
      // destroys it, and nothing erased is answered from memory (another process's vault trusts its cache ≤ 30 s).
      if (await this.vault.find(customerDataKeySubject(terms.account_id, cached.customer_id), terms.key_id)) return cached;
      this.opened.delete(terms.sealed);
      return undefined;
    }
    const customerId = this.borrowerOf(terms.account_id, terms.borrower_ref);
    if (customerId === undefined) return undefined;
    const key = await this.vault.find(customerDataKeySubject(terms.account_id, customerId), terms.key_id);
    if (!key) return undefined;
    const sealed = orNothing(() => this.events.fields.openValue<Omit<OpenedTerms, 'customer_id'>>(key, SealedFields.context(loanStream(terms.account_id, terms.loan_id), REGISTERED), terms.sealed));
    if (!sealed) return undefined;
    const opened = { customer_id: customerId, zone: sealed.zone, anchor: sealed.anchor };
    if (this.opened.size >= OPENED_CACHE_LIMIT) this.opened.clear();
    this.opened.set(terms.sealed, opened);
    return opened;
  }

  /** The borrower id of a read-model document (banking's own key: no customer key is needed). */
  borrowerOf(accountId: string, borrowerRef: string): string | undefined {
    return this.events.customerOf(accountId, borrowerRef);
  }

  /** The codec under the loan streams: decide → seal → append, decode → open → upcast → evolve. */
  codec(): StreamCodec<LoanState> {
    return {
      session: (stream): CodecSession<LoanState> => ({
        open: async (event) => {
          const data = await this.open(event);
          return data && { ...event, data };
        },
        seal: (event) => this.seal(stream, event),
      }),
    };
  }
}
