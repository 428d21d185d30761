import {
  COLLECTION_LOAN_INDEXES,
  COLLECTION_LOANS_READ_MODEL,
  eraseLoanDoc,
  evolveLoanDoc,
  isLoanDoc,
  LOAN_EVENT_TYPES,
  type CollectionLoansDoc,
  type LoanErasureMarkerDoc,
} from '../../libs/banking/src/index.js';
import type { CustomerDataErased } from '../../libs/monitoring/src/index.js';
import { docsOfErasedCustomer } from '../erased-customer-docs.js';
import type { Projection, ReadCollection, RecordedEvent } from '../../libs/platform/src/index.js';

/**
 * The latest terms of every loan registered for collections
 * (libs/banking/src/public/collection-loans.read-model.ts), as stored: the
 * borrower as a pseudonym, their id and the zone sealed (docs/adr/0055). A
 * borrower's erasure (monitoring's CustomerDataErased, which names them by
 * the same pseudonym) empties their documents of everything but the loan id
 * and its times; it also finds, by the id in the clear, their loans
 * registered before sealing.
 */
export const collectionLoansProjection: Projection<CollectionLoansDoc> = {
  name: COLLECTION_LOANS_READ_MODEL.name,
  version: COLLECTION_LOANS_READ_MODEL.version,
  streamPrefixes: ['collection_loan-', 'consent-'],
  handles: [...LOAN_EVENT_TYPES, 'CustomerDataErased'],
  indexes: COLLECTION_LOAN_INDEXES,
  // A registration makes its one write first: a batch of events per commit on the embedded store (issue 31).
  // An erasure writes its marker first too, and reads only once that write (and so every earlier one) took effect.
  pipelined: true,
  async apply(event, collection) {
    if (event.type === 'CustomerDataErased') return applyErasure(event, collection);
    const data = event.data;
    await collection.apply(`${String(data.account_id)}:${String(data.loan_id)}`, event.position, (current) => evolveLoanDoc(isLoanDoc(current) ? current : undefined, { type: 'CollectionLoanRegistered', data }));
  },
};

async function applyErasure(event: RecordedEvent, collection: ReadCollection<CollectionLoansDoc>): Promise<void> {
  const erased = event.data as unknown as CustomerDataErased['data'];
  const { erased_at } = erased;
  const marker: LoanErasureMarkerDoc = { id: `erasure:${event.id}`, account_id: null, pseudonym: null, legacy_customer_id: null, erased_at };
  await collection.apply(marker.id, event.position, () => marker);
  const ids = (await docsOfErasedCustomer(collection, erased)).filter((doc) => isLoanDoc(doc) && doc.registered_at <= erased_at).map((doc) => doc.id);
  // At the erasure's position: a registration after it (a new key, a new borrower) is newer and stays as it is.
  for (const id of ids) await collection.apply(id, event.position, (current) => (isLoanDoc(current) ? eraseLoanDoc(current, erased_at) : (current ?? null)));
}
