import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CollectionLoans, type CollectionLoanDoc } from '../../libs/banking/src/index.js';
import { collectionName, EmbeddedReadStore, type RecordedEvent } from '../../libs/platform/src/index.js';
import { collectionLoansProjection } from './collection-loans.projection.js';

let position = 0n;
const registered = (account: string, loan: string, radius: number): RecordedEvent => {
  position += 1n;
  return {
    id: `event-${position}`,
    streamName: `collection_loan-${account}:${loan}`,
    type: 'CollectionLoanRegistered',
    data: { account_id: account, loan_id: loan, customer_id: 'cust-1', zone: { type: 'point', lat: 5.55, lng: -0.21, radius_m: radius }, anchor: { lat: 5.55, lng: -0.21 }, expected_collection_days: null, registered_at: '2026-11-23T09:00:00.000Z' },
    metadata: { schema_version: 1 },
    revision: 0n,
    position,
    createdAt: new Date(),
  };
};

describe('collection_loans projection', () => {
  it("keeps each loan's latest terms, lists an account's book only, and a replayed event changes nothing", async () => {
    const store = await EmbeddedReadStore.open(mkdtempSync(path.join(tmpdir(), 'collection-loans-')));
    try {
      const collection = await store.collection<CollectionLoanDoc>(collectionName(collectionLoansProjection), collectionLoansProjection.indexes);
      const first = registered('acct_a', 'loan-1', 300);
      await collectionLoansProjection.apply(first, collection);
      const update = registered('acct_a', 'loan-1', 500);
      await collectionLoansProjection.apply(update, collection);
      const stored = await collection.getStored('acct_a:loan-1');
      // At least once delivery: the older event again cannot bring the old terms back.
      await collectionLoansProjection.apply(first, collection);
      await collectionLoansProjection.apply(update, collection);
      expect(await collection.getStored('acct_a:loan-1')).toEqual(stored);
      expect(stored?.doc).toMatchObject({ loan_id: 'loan-1', zone: { radius_m: 500 } });
      await collectionLoansProjection.apply(registered('acct_b', 'loan-1', 100), collection);
      await collectionLoansProjection.apply(registered('acct_a', 'loan-2', 100), collection);
      const book: string[] = [];
      for await (const page of new CollectionLoans(store).ofAccount('acct_a')) book.push(...page.map((doc) => doc.loan_id));
      expect(book).toEqual(['loan-1', 'loan-2']);
    } finally {
      await store.close();
    }
  });
});
