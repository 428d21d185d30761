import { Inject } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock, type AnswerOf } from '../../../../platform/src/index.js';
import { AccountNames } from '../../account-names.js';
import { MAX_LIVE_CODES, MAX_VIEWERS } from '../../domain/share.js';
import { ShareDirectory } from '../../public/shares.read-model.js';
import type { ListViewersAnswerSchema } from './list-viewers.answer.js';

export type ViewersView = AnswerOf<typeof ListViewersAnswerSchema>;

/** GET /v2/locator/viewers: who can see the signed-in owner. */
export class ListViewersQuery extends Query<ViewersView> {
  constructor(readonly ownerAccountId: string) {
    super();
  }
}

/** The owner's active pairings and live codes, from the locator_shares read model. */
@QueryHandler(ListViewersQuery)
export class ListViewersHandler implements IQueryHandler<ListViewersQuery> {
  constructor(
    private readonly shares: ShareDirectory,
    private readonly names: AccountNames,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ ownerAccountId }: ListViewersQuery): Promise<ViewersView> {
    const now = this.clock.now();
    const [pairings, codes] = await Promise.all([this.shares.viewersOf(ownerAccountId, now, MAX_VIEWERS), this.shares.liveCodes(ownerAccountId, now, MAX_LIVE_CODES)]);
    return {
      items: pairings.map((doc) => ({
        pairing_id: doc.id,
        viewer_id: doc.viewer_account_id,
        viewer_name: doc.viewer_account_id ? this.names.of(doc.viewer_account_id) : null,
        label: doc.label,
        paired_at: doc.paired_at,
        expires_at: doc.expires_at,
      })),
      pending_codes: codes.map((doc) => ({ share_id: doc.id, label: doc.label, issued_at: doc.issued_at, expires_at: doc.code_expires_at, share_for_s: doc.share_for_s })),
    };
  }
}
