import { collectionName, type IndexSpec, type ReadCollection, type ReadStore } from '../../../platform/src/index.js';
import type { CollectionZone, LoanEvent } from '../domain/loan.js';

/**
 * The `collection_loans` read model (projections/collection-loans): the
 * latest terms of every registered loan, one document per (account, loan),
 * for the portfolio-risk query that reads an account's whole book. Holds the
 * lender's zones and ids, never a borrower's position.
 */
export const COLLECTION_LOANS_READ_MODEL = { name: 'collection_loans', version: 1 } as const;
export const COLLECTION_LOAN_INDEXES: IndexSpec[] = [{ name: 'by_account', fields: ['account_id', 'loan_id'] }];

export interface CollectionLoanDoc {
  [field: string]: unknown;
  /** `<account>:<loan>`. */
  id: string;
  account_id: string;
  loan_id: string;
  customer_id: string;
  zone: CollectionZone;
  anchor: { lat: number; lng: number };
  expected_collection_days: number | null;
  registered_at: string;
}

export function evolveLoanDoc(_current: CollectionLoanDoc | undefined, event: LoanEvent): CollectionLoanDoc {
  const { account_id, loan_id, customer_id, zone, anchor, expected_collection_days, registered_at } = event.data;
  return { id: `${account_id}:${loan_id}`, account_id, loan_id, customer_id, zone, anchor, expected_collection_days, registered_at };
}

/** The account's loans, page by page (the read store answers at most 1000 a page). */
export class CollectionLoans {
  private collection?: Promise<ReadCollection<CollectionLoanDoc>>;

  constructor(private readonly readStore: ReadStore) {}

  async *ofAccount(accountId: string, pageSize = 1000): AsyncGenerator<CollectionLoanDoc[]> {
    const collection = await this.open();
    let cursor: string | undefined;
    do {
      const page = await collection.find({ index: 'by_account', equals: [accountId], limit: pageSize, ...(cursor ? { cursor } : {}) });
      if (page.items.length > 0) yield page.items;
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
  }

  async byId(accountId: string, loanId: string): Promise<CollectionLoanDoc | undefined> {
    return (await this.open()).get(`${accountId}:${loanId}`);
  }

  private open(): Promise<ReadCollection<CollectionLoanDoc>> {
    this.collection ??= this.readStore.collection<CollectionLoanDoc>(collectionName(COLLECTION_LOANS_READ_MODEL), COLLECTION_LOAN_INDEXES);
    return this.collection;
  }
}
