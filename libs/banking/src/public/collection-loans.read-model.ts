import { collectionName, type IndexSpec, type ReadCollection, type ReadStore } from '../../../platform/src/index.js';
import type { CollectionZone, LoanEvent, LoanTerms } from '../domain/loan.js';
import { isSealedLoan, type LoanSealing, type OpenedTerms } from '../loans/loan-sealing.js';

/**
 * The `collection_loans` read model (projections/collection-loans): the
 * latest terms of every registered loan, one document per (account, loan),
 * for the portfolio-risk query that reads an account's whole book.
 *
 * Version 2 (issue 47, docs/adr/0055): the document never names its borrower
 * nor holds their zone in the clear. It keeps monitoring's keyed `pseudonym`
 * of the borrower (the erasure finds their documents by it), the borrower id
 * sealed under banking's own key (`borrower_ref`) and the zone and anchor
 * sealed under the borrower's data key (`key_id`, `sealed`), all three copied
 * from the stored registration. `CustomerDataErased` (POST
 * /v2/consent/delete-data) empties them: the document keeps the loan id, the
 * times and `erased_at`. Registrations stored before sealing hold the terms
 * in the clear (`legacy_terms`, and `legacy_customer_id` for the erasure to
 * find them); `collection_loans_v1` is no longer read and may be dropped.
 */
export const COLLECTION_LOANS_READ_MODEL = { name: 'collection_loans', version: 2 } as const;
export const COLLECTION_LOAN_INDEXES: IndexSpec[] = [
  { name: 'by_account', fields: ['account_id', 'loan_id'] },
  /** A borrower's loans, for their erasure. */
  { name: 'by_pseudonym', fields: ['account_id', 'pseudonym'] },
  /** A borrower's loans registered before sealing, for their erasure. */
  { name: 'by_legacy_customer', fields: ['account_id', 'legacy_customer_id'] },
];

export interface CollectionLoanDoc {
  [field: string]: unknown;
  /** `<account>:<loan>`. */
  id: string;
  account_id: string;
  loan_id: string;
  /** Monitoring's keyed pseudonym of the borrower; null for a registration stored before sealing. */
  pseudonym: string | null;
  /** The borrower id sealed under banking's key; null once erased and before sealing. */
  borrower_ref: string | null;
  /** The borrower's data key the zone is sealed under, and the sealed zone and anchor; null once erased and before sealing. */
  key_id: string | null;
  sealed: string | null;
  /** Terms of a registration stored before sealing, in the clear; null otherwise and once erased. */
  legacy_terms: Pick<LoanTerms, 'customer_id' | 'zone' | 'anchor'> | null;
  legacy_customer_id: string | null;
  expected_collection_days: number | null;
  registered_at: string;
  /** When the borrower's data was erased (the terms went with it); null otherwise. */
  erased_at: string | null;
}

/**
 * What the collection keeps of an erasure it applied: nothing of the borrower
 * (its id is the erasure event's). Written first when an erasure is applied,
 * so that every earlier write has taken effect before the borrower's
 * documents are looked up. Its null account keeps it out of every book.
 */
export interface LoanErasureMarkerDoc {
  [field: string]: unknown;
  id: string;
  account_id: null;
  pseudonym: null;
  legacy_customer_id: null;
  erased_at: string;
}

export type CollectionLoansDoc = CollectionLoanDoc | LoanErasureMarkerDoc;

export function isLoanDoc(doc: CollectionLoansDoc | undefined): doc is CollectionLoanDoc {
  return doc !== undefined && doc.account_id !== null;
}

/** The document after a registration, from the event as stored (sealed, or in the clear before sealing). */
export function evolveLoanDoc(_current: CollectionLoanDoc | undefined, event: { type: LoanEvent['type']; data: Readonly<Record<string, unknown>> }): CollectionLoanDoc {
  const data = event.data;
  const account_id = String(data.account_id);
  const loan_id = String(data.loan_id);
  const base = { id: `${account_id}:${loan_id}`, account_id, loan_id, expected_collection_days: (data.expected_collection_days as number | null | undefined) ?? null, registered_at: String(data.registered_at), erased_at: null };
  if (isSealedLoan(data)) {
    return { ...base, pseudonym: data.pseudonym, borrower_ref: data.borrower_ref, key_id: data.key_id, sealed: data.sealed, legacy_terms: null, legacy_customer_id: null };
  }
  const { customer_id, zone, anchor } = data as unknown as LoanTerms;
  return { ...base, pseudonym: null, borrower_ref: null, key_id: null, sealed: null, legacy_terms: { customer_id, zone, anchor }, legacy_customer_id: customer_id };
}

/** The document once its borrower's data was erased: the loan, its times, nothing of the borrower. */
export function eraseLoanDoc(doc: CollectionLoanDoc, erasedAt: string): CollectionLoanDoc {
  return { ...doc, borrower_ref: null, key_id: null, sealed: null, legacy_terms: null, legacy_customer_id: null, erased_at: erasedAt };
}

/** A loan of the book with its terms opened (what portfolio risk assesses). */
export interface BookEntry {
  loan_id: string;
  customer_id: string;
  zone: CollectionZone;
  anchor: { lat: number; lng: number };
  expected_collection_days: number | null;
}

/**
 * The account's loans, page by page (the read store answers at most 1000 a
 * page), each opened: a loan whose borrower was erased (or whose terms no
 * longer open) is left out, since nothing of it can be assessed.
 */
export class CollectionLoans {
  private collection?: Promise<ReadCollection<CollectionLoanDoc>>;

  constructor(
    private readonly readStore: ReadStore,
    private readonly sealing: Pick<LoanSealing, 'openTerms'>,
  ) {}

  async *ofAccount(accountId: string, pageSize = 1000): AsyncGenerator<BookEntry[]> {
    const collection = await this.open();
    // The read store's scan: a batch at a time, the loop free between batches (read-store.port.ts).
    for await (const docs of collection.scan({ index: 'by_account', equals: [accountId] }, pageSize)) {
      const entries = await this.entries(docs);
      if (entries.length > 0) yield entries;
    }
  }

  /** The loans named (at most 1000), in order, each with its terms; undefined when unknown, or erased. One read-store read. */
  async byIds(accountId: string, loanIds: readonly string[]): Promise<Array<BookEntry | undefined>> {
    const docs = await (await this.open()).getMany(loanIds.map((loanId) => `${accountId}:${loanId}`));
    return Promise.all(docs.map((doc) => doc && this.entry(doc)));
  }

  /** The loan with its terms; undefined when unknown, or erased. */
  async byId(accountId: string, loanId: string): Promise<BookEntry | undefined> {
    const doc = await (await this.open()).get(`${accountId}:${loanId}`);
    return doc && (await this.entry(doc));
  }

  private async entries(docs: readonly CollectionLoanDoc[]): Promise<BookEntry[]> {
    const opened = await Promise.all(docs.map((doc) => this.entry(doc)));
    return opened.filter((entry): entry is BookEntry => entry !== undefined);
  }

  private async entry(doc: CollectionLoanDoc): Promise<BookEntry | undefined> {
    const terms = await termsOf(doc, this.sealing);
    return terms && { loan_id: doc.loan_id, ...terms, expected_collection_days: doc.expected_collection_days };
  }

  private open(): Promise<ReadCollection<CollectionLoanDoc>> {
    this.collection ??= this.readStore.collection<CollectionLoanDoc>(collectionName(COLLECTION_LOANS_READ_MODEL), COLLECTION_LOAN_INDEXES);
    return this.collection;
  }
}

/** A document's borrower, zone and anchor: in the clear before sealing, opened after; undefined once erased. */
export async function termsOf(doc: CollectionLoanDoc, sealing: Pick<LoanSealing, 'openTerms'>): Promise<OpenedTerms | undefined> {
  if (doc.erased_at !== null) return undefined;
  if (doc.legacy_terms) return doc.legacy_terms;
  if (doc.sealed === null || doc.key_id === null || doc.borrower_ref === null) return undefined;
  return sealing.openTerms({ account_id: doc.account_id, loan_id: doc.loan_id, key_id: doc.key_id, sealed: doc.sealed, borrower_ref: doc.borrower_ref });
}
