import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { AnswerOf } from '../../../../platform/src/index.js';
import { NOTICES_PER_ACCOUNT_MAX } from '../../domain/consent-notice.js';
import type { ConsentNoticeListSchema } from './list-consent-notices.answer.js';
import { ConsentNoticeRegistry } from '../../consent-notices/consent-notice-registry.js';

/** GET /v2/consent/notices. */
export class ListConsentNoticesQuery extends Query<AnswerOf<typeof ConsentNoticeListSchema>> {
  constructor(readonly accountId: string) {
    super();
  }
}

@QueryHandler(ListConsentNoticesQuery)
export class ListConsentNoticesHandler implements IQueryHandler<ListConsentNoticesQuery> {
  constructor(private readonly registry: ConsentNoticeRegistry) {}

  async execute({ accountId }: ListConsentNoticesQuery): Promise<AnswerOf<typeof ConsentNoticeListSchema>> {
    const { notices } = await this.registry.of(accountId);
    return { items: notices.map((notice) => ({ ...notice })), max_items: NOTICES_PER_ACCOUNT_MAX };
  }
}
