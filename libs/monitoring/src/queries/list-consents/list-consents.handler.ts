import { Inject } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { collectionName, READ_STORE, type ReadStore } from '../../../../platform/src/index.js';
import { consentStatusView } from '../get-consent-status/consent-status.view.js';
import { CONSENTS_INDEXES, CONSENTS_PROJECTION, CONSENTS_VERSION, type ConsentDoc } from './consents.read-model.js';

export interface ConsentPage {
  items: Array<ReturnType<typeof consentStatusView>>;
  next_cursor: string | null;
}

/** GET /v2/consents. */
export class ListConsentsQuery extends Query<ConsentPage> {
  constructor(
    readonly accountId: string,
    readonly filter: { status?: 'granted' | 'revoked'; limit: number; cursor?: string },
  ) {
    super();
  }
}

/**
 * The calling account's consents from the `consents` read model, by customer
 * id. A status filter is applied to each page read (a page may then hold
 * fewer than `limit` items while `next_cursor` still leads on).
 */
@QueryHandler(ListConsentsQuery)
export class ListConsentsHandler implements IQueryHandler<ListConsentsQuery> {
  constructor(@Inject(READ_STORE) private readonly readStore: ReadStore) {}

  async execute({ accountId, filter }: ListConsentsQuery): Promise<ConsentPage> {
    const collection = await this.readStore.collection<ConsentDoc>(collectionName({ name: CONSENTS_PROJECTION, version: CONSENTS_VERSION }), CONSENTS_INDEXES);
    const page = await collection.find({ index: 'by_account', equals: [accountId], direction: 'asc', limit: filter.limit, cursor: filter.cursor });
    const docs = filter.status ? page.items.filter((doc) => doc.state.status === filter.status) : page.items;
    return { items: docs.map((doc) => consentStatusView(doc.customer_id, doc.state, accountId)), next_cursor: page.nextCursor };
  }
}
