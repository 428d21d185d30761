import { Inject } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { CLOCK, CommandPipeline, type Clock, type AnswerOf } from '../../../../platform/src/index.js';
import { LocationNotSharedError } from '../../domain/errors.js';
import { ageSeconds, positionDecider, positionStream } from '../../domain/position.js';
import { isPairingActive, shareDecider } from '../../domain/share.js';
import { PositionSealing } from '../../public/position-sealing.js';
import { ShareDirectory } from '../../public/shares.read-model.js';
import type { GetLocationAnswerSchema } from './get-location.answer.js';

/** How a share's stream is folded for a read (one definition object: the pipeline keeps its wiring per definition). */
const SHARE_STREAM = { decider: shareDecider };
/** The position stream as POST /v2/locator/checkin folds it: through the sealing codec, from the last event. */
const POSITION_STREAM = { decider: positionDecider, inject: { sealing: PositionSealing }, codec: (deps: unknown) => (deps as { sealing: PositionSealing }).sealing.codec() };

export type TargetLocation = AnswerOf<typeof GetLocationAnswerSchema>;

/** GET /v2/locator/{targetId}/location: the target's position, as the signed-in viewer may see it. */
export class GetLocationQuery extends Query<TargetLocation> {
  constructor(
    readonly viewerAccountId: string,
    readonly targetAccountId: string,
  ) {
    super();
  }
}

/**
 * The read model only finds candidate
 * pairings; each is confirmed on its own stream at this request's time
 * (redeemed, not revoked, not past its expiry), so a revocation or an expiry
 * holds from the moment it happens on every instance, whatever the read model
 * has caught up with. Then the target's position stream is read through its
 * codec (the last event only).
 */
@QueryHandler(GetLocationQuery)
export class GetLocationHandler implements IQueryHandler<GetLocationQuery> {
  constructor(
    private readonly streams: CommandPipeline,
    private readonly shares: ShareDirectory,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ viewerAccountId, targetAccountId }: GetLocationQuery): Promise<TargetLocation> {
    const now = this.clock.now();
    let pairing: { id: string; expires_at: string | null } | null = null;
    if (targetAccountId !== viewerAccountId) {
      for (const candidate of await this.shares.between(targetAccountId, viewerAccountId, now)) {
        const { state } = await this.streams.read(SHARE_STREAM, candidate.stream);
        if (isPairingActive(state, now) && state.offer.owner_account_id === targetAccountId && state.pairing.viewer_account_id === viewerAccountId) {
          pairing = { id: state.offer.share_id, expires_at: state.pairing.expires_at };
          break;
        }
      }
      // Never paired, revoked, expired, or no such account: one answer.
      if (!pairing) throw new LocationNotSharedError();
    }
    const { state } = await this.streams.read(POSITION_STREAM, positionStream(targetAccountId));
    const at = this.clock.now();
    return {
      target_id: targetAccountId,
      pairing_id: pairing?.id ?? null,
      pairing_expires_at: pairing?.expires_at ?? null,
      position: state.last ? { ...state.last, age_s: ageSeconds(state.last, at) } : null,
    };
  }
}
