import { Inject } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock, type AnswerOf } from '../../../../platform/src/index.js';
import { AccountNames } from '../../account-names.js';
import { MAX_WATCHING } from '../../domain/share.js';
import { ShareDirectory } from '../../public/shares.read-model.js';
import type { ListWatchingAnswerSchema } from './list-watching.answer.js';

export type WatchingView = AnswerOf<typeof ListWatchingAnswerSchema>;

/** GET /v2/locator/watching: whom the signed-in viewer can see. */
export class ListWatchingQuery extends Query<WatchingView> {
  constructor(readonly viewerAccountId: string) {
    super();
  }
}

/** The viewer's active pairings, from the locator_shares read model. */
@QueryHandler(ListWatchingQuery)
export class ListWatchingHandler implements IQueryHandler<ListWatchingQuery> {
  constructor(
    private readonly shares: ShareDirectory,
    private readonly names: AccountNames,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ viewerAccountId }: ListWatchingQuery): Promise<WatchingView> {
    const pairings = await this.shares.watchedBy(viewerAccountId, this.clock.now(), MAX_WATCHING);
    return {
      items: pairings.map((doc) => ({
        pairing_id: doc.id,
        target_id: doc.owner_account_id,
        target_name: this.names.of(doc.owner_account_id),
        paired_at: doc.paired_at,
        expires_at: doc.expires_at,
      })),
    };
  }
}
