import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CollectionLoans, loanStream, type BookEntry, type CollectionLoansDoc } from '../../libs/banking/src/index.js';
import { LoanSealing } from '../../libs/banking/src/testing/loan-sealing.js';
import { collectionName, customerDataKeySubject, EmbeddedDataKeyVault, EmbeddedReadStore, SecretBox, type RecordedEvent } from '../../libs/platform/src/index.js';
import { collectionLoansProjection } from './collection-loans.projection.js';

/** Stands in for monitoring's keyed pseudonyms: a hash that does not show the id. */
const pseudonyms = { of: (account: string, customer: string) => createHash('sha256').update(`${account}\n${customer}`).digest('base64url').slice(0, 32) };
let position = 0n;
const recorded = (streamName: string, type: string, data: Record<string, unknown>): RecordedEvent => {
  position += 1n;
  return { id: `event-${position}`, streamName, type, data, metadata: { schema_version: 1 }, revision: 0n, position, createdAt: new Date() };
};
const terms = (customer: string, radius: number) => ({ customer_id: customer, zone: { type: 'point', lat: 5.551234, lng: -0.211234, radius_m: radius }, anchor: { lat: 5.551234, lng: -0.211234 } });

describe('collection_loans projection (version 2: sealed, docs/adr/0055)', () => {
  let store: EmbeddedReadStore;
  let sealing: LoanSealing;
  let vault: EmbeddedDataKeyVault;

  beforeAll(async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'collection-loans-'));
    store = await EmbeddedReadStore.open(path.join(dir, 'read-models'));
    vault = await EmbeddedDataKeyVault.open(dir, SecretBox.fromKey(randomBytes(32)));
    sealing = await LoanSealing.open(vault, pseudonyms);
  });
  afterAll(async () => {
    await store.close();
    await vault.close();
  });

  const collection = () => store.collection<CollectionLoansDoc>(collectionName(collectionLoansProjection), collectionLoansProjection.indexes);
  /** A registration as the pipeline stores it: through the codec. */
  const registered = async (account: string, loan: string, customer: string, radius: number) => {
    const stream = loanStream(account, loan);
    const stored = await sealing.seal(stream, { type: 'CollectionLoanRegistered', data: { account_id: account, loan_id: loan, ...terms(customer, radius), expected_collection_days: 7, registered_at: new Date(Date.now() - 1000).toISOString() }, metadata: { schema_version: 1 } });
    return recorded(stream, stored.type, stored.data);
  };
  /** A registration stored before sealing: its terms in the clear. */
  const legacy = (account: string, loan: string, customer: string) =>
    recorded(loanStream(account, loan), 'CollectionLoanRegistered', { account_id: account, loan_id: loan, ...terms(customer, 250), expected_collection_days: null, registered_at: '2026-11-23T09:00:00.000Z' });
  const erased = (account: string, customer: string) =>
    recorded(`consent-${account}:${customer}`, 'CustomerDataErased', { account_id: account, customer_id: customer, erased_at: new Date().toISOString(), erased_by: 'lk_x', events_erased: 1, pseudonym: pseudonyms.of(account, customer) });
  const book = async (account: string) => {
    const entries: BookEntry[] = [];
    for await (const page of new CollectionLoans(store, sealing).ofAccount(account)) entries.push(...page);
    return entries;
  };

  it("keeps each loan's latest terms sealed, lists an account's book opened, and a replayed event changes nothing", async () => {
    const loans = await collection();
    const first = await registered('acct_a', 'loan-1', 'cust-secret-1', 300);
    const update = await registered('acct_a', 'loan-1', 'cust-secret-1', 500);
    for (const event of [first, update]) await collectionLoansProjection.apply(event, loans);
    const stored = await loans.getStored('acct_a:loan-1');
    await collectionLoansProjection.apply(first, loans);
    await collectionLoansProjection.apply(update, loans);
    expect(await loans.getStored('acct_a:loan-1')).toEqual(stored);
    // Neither the borrower nor the zone in the clear: a pseudonym, a sealed reference and the sealed zone.
    expect(stored?.doc).toMatchObject({ loan_id: 'loan-1', pseudonym: pseudonyms.of('acct_a', 'cust-secret-1'), borrower_ref: expect.any(String), key_id: expect.any(String), sealed: expect.any(String), legacy_terms: null, erased_at: null });
    expect(JSON.stringify(stored?.doc)).not.toMatch(/cust-secret-1"|5\.551234|-0\.211234|radius_m/);
    await collectionLoansProjection.apply(await registered('acct_b', 'loan-1', 'cust-secret-1', 100), loans);
    await collectionLoansProjection.apply(legacy('acct_a', 'loan-2', 'cust-old'), loans);
    expect(await book('acct_a')).toEqual([
      { loan_id: 'loan-1', customer_id: 'cust-secret-1', zone: { type: 'point', lat: 5.551234, lng: -0.211234, radius_m: 500 }, anchor: { lat: 5.551234, lng: -0.211234 }, expected_collection_days: 7 },
      { loan_id: 'loan-2', customer_id: 'cust-old', zone: { type: 'point', lat: 5.551234, lng: -0.211234, radius_m: 250 }, anchor: { lat: 5.551234, lng: -0.211234 }, expected_collection_days: null },
    ]);
  });

  it("empties an erased borrower's loans, sealed and legacy, of everything but the loan; a registration after the erasure stands", async () => {
    const loans = await collection();
    await collectionLoansProjection.apply(await registered('acct_e', 'loan-1', 'cust-gone', 300), loans);
    await collectionLoansProjection.apply(legacy('acct_e', 'loan-2', 'cust-gone'), loans);
    await collectionLoansProjection.apply(await registered('acct_e', 'loan-3', 'cust-stays', 300), loans);
    expect((await book('acct_e')).map((entry) => entry.loan_id)).toEqual(['loan-1', 'loan-2', 'loan-3']);
    // The erasure as delete-data runs it: the key first, then the record.
    await vault.destroy(customerDataKeySubject('acct_e', 'cust-gone'));
    const erasure = erased('acct_e', 'cust-gone');
    await collectionLoansProjection.apply(erasure, loans);
    await collectionLoansProjection.apply(erasure, loans);
    expect((await book('acct_e')).map((entry) => entry.loan_id)).toEqual(['loan-3']);
    for (const id of ['acct_e:loan-1', 'acct_e:loan-2']) {
      const doc = await loans.get(id);
      expect(doc).toMatchObject({ loan_id: id.slice(7), borrower_ref: null, key_id: null, sealed: null, legacy_terms: null, legacy_customer_id: null, erased_at: expect.any(String) });
      expect(JSON.stringify(doc)).not.toMatch(/cust-gone|5\.551234/);
    }
    expect(await new CollectionLoans(store, sealing).byId('acct_e', 'loan-1')).toBeUndefined();
    // Registered again after the erasure: a new key, and the loan is in the book again.
    await collectionLoansProjection.apply(await registered('acct_e', 'loan-1', 'cust-gone', 200), loans);
    expect((await book('acct_e')).map((entry) => [entry.loan_id, entry.customer_id])).toEqual([
      ['loan-1', 'cust-gone'],
      ['loan-3', 'cust-stays'],
    ]);
  });

  it('answers nothing from its cache once the key is destroyed, even before the read model has seen the erasure', async () => {
    const loans = await collection();
    await collectionLoansProjection.apply(await registered('acct_c', 'loan-1', 'cust-cached', 300), loans);
    expect(await book('acct_c')).toHaveLength(1);
    await vault.destroy(customerDataKeySubject('acct_c', 'cust-cached'));
    expect(await book('acct_c')).toEqual([]);
  });
});
