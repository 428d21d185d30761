import { Inject } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { collectionName, READ_STORE, type ReadStore, type AnswerOf } from '../../../../platform/src/index.js';
import { ConsentRecordSealing } from '../../consent-record/consent-record-sealing.js';
import { noticeOf } from '../../domain/consent-receipt.js';
import { CONSENT_RECORD_INDEXES, CONSENTS_PROJECTION, CONSENTS_VERSION, type ConsentRecordDoc, type ConsentRecordStatus } from '../../consent-record/consent-record.read-model.js';
import type { ConsentPageSchema } from './list-consents.answer.js';

export type ConsentPage = AnswerOf<typeof ConsentPageSchema>;
export type ConsentRecordView = ConsentPage['items'][number];

/** GET /v2/consents. */
export class ListConsentsQuery extends Query<ConsentPage> {
  constructor(
    readonly accountId: string,
    readonly filter: { status?: ConsentRecordStatus; limit: number; cursor?: string },
  ) {
    super();
  }
}

/**
 * The `consents` read model, in pseudonym order (stable across pages, and
 * saying nothing of the customers); each record's customer id is opened with
 * its record key, which an erasure destroyed (docs/adr/0032, "Listing").
 */
@QueryHandler(ListConsentsQuery)
export class ListConsentsHandler implements IQueryHandler<ListConsentsQuery> {
  constructor(
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    private readonly records: ConsentRecordSealing,
  ) {}

  async execute({ accountId, filter }: ListConsentsQuery): Promise<ConsentPage> {
    const collection = await this.readStore.collection<ConsentRecordDoc>(collectionName({ name: CONSENTS_PROJECTION, version: CONSENTS_VERSION }), CONSENT_RECORD_INDEXES);
    const page = await collection.find({
      index: filter.status === undefined ? 'by_account' : 'by_account_status',
      equals: filter.status === undefined ? [accountId] : [accountId, filter.status],
      direction: 'asc',
      limit: filter.limit,
      cursor: filter.cursor,
    });
    return { items: await Promise.all(page.items.map((doc) => this.view(doc))), next_cursor: page.nextCursor };
  }

  private async view(doc: ConsentRecordDoc): Promise<ConsentRecordView> {
    const customer_id = doc.status === 'erased' ? null : await this.records.open(doc.account_id, doc.pseudonym, doc.customer);
    const receipts = ['granted', ...(doc.revoked_at ? ['revoked'] : []), ...(doc.status === 'erased' ? ['erased'] : [])];
    return {
      consent_id: doc.consent_id,
      customer_id,
      status: doc.status,
      purpose: doc.purpose,
      scope: doc.scope,
      notice: noticeOf(doc.notice ?? undefined),
      channel: doc.channel ?? 'unspecified',
      captured_at: doc.captured_at,
      granted_at: doc.granted_at,
      revoked_at: doc.revoked_at,
      erased_at: doc.erased_at,
      receipt_ids: receipts.map((event) => `${doc.consent_id}.${event}`),
    };
  }
}
