import { COLLECTION_LOAN_INDEXES, COLLECTION_LOANS_READ_MODEL, evolveLoanDoc, LOAN_EVENT_TYPES, type CollectionLoanDoc, type LoanEvent } from '../../libs/banking/src/index.js';
import type { Projection } from '../../libs/platform/src/index.js';

/** The latest terms of every loan registered for collections (libs/banking/src/read-models/collection-loans.read-model.ts). */
export const collectionLoansProjection: Projection<CollectionLoanDoc> = {
  name: COLLECTION_LOANS_READ_MODEL.name,
  version: COLLECTION_LOANS_READ_MODEL.version,
  streamPrefixes: ['collection_loan-'],
  handles: LOAN_EVENT_TYPES,
  indexes: COLLECTION_LOAN_INDEXES,
  // One write, made first: a batch of events per commit on the embedded store (issue 31).
  pipelined: true,
  async apply(event, collection) {
    const loanEvent = { type: event.type, data: event.data } as LoanEvent;
    await collection.apply(`${loanEvent.data.account_id}:${loanEvent.data.loan_id}`, event.position, (current) => evolveLoanDoc(current, loanEvent));
  },
};
