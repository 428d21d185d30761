import { CommandHandler } from '@nestjs/cqrs';
import { CLOCK, command, PipelineCommand, PipelineHandler, type Clock } from '../../../../platform/src/index.js';
import { MAX_VIEWERS, MAX_WATCHING, shareDecider, shareStream, type RedeemShareCode, type ShareEvent, type ShareState } from '../../domain/share.js';
import { ShareDirectory } from '../../shares.read-model.js';

/** POST /v2/locator/redeem: share code → pairing owner→viewer, tied to the redeemer's account. */
export const redeemShareCode = command<RedeemShareCode, ShareState, ShareEvent, { shares: ShareDirectory; clock: Clock }>({
  name: 'locator.redeem-share-code',
  stream: (input) => shareStream(input.code_digest),
  decider: shareDecider,
  inject: { shares: ShareDirectory, clock: CLOCK },
  /**
   * Once the stream names the owner: whether this viewer already sees them,
   * and the caps on both sides, from the read model. Two redemptions of
   * different codes by one viewer at the same moment can both pass; they
   * leave two pairings, each listed and revocable on its own.
   */
  prepare: async (input, loaded, { shares, clock }) => {
    if (loaded.state.status !== 'issued') return input;
    const owner = loaded.state.offer.owner_account_id;
    const now = clock.now();
    const [existing, viewers, watching] = await Promise.all([
      shares.between(owner, input.viewer_account_id, now),
      shares.viewersOf(owner, now, MAX_VIEWERS),
      shares.watchedBy(input.viewer_account_id, now, MAX_WATCHING),
    ]);
    return { ...input, existing_pairing_id: existing[0]?.id ?? null, owner_viewers: viewers.length, viewer_watching: watching.length };
  },
  // Every rule is in the decider: two people redeeming one code meet on this stream, and the loser, deciding again, finds the code used.
  onConflict: { retry: 3 },
  // The lists both sides read next (and the already-paired check) come from the read model.
  awaits: ['locator_shares'],
});

export class RedeemShareCodeCommand extends PipelineCommand<RedeemShareCode, ShareState, ShareEvent> {}

@CommandHandler(RedeemShareCodeCommand)
export class RedeemShareCodeHandler extends PipelineHandler<RedeemShareCode, ShareState, ShareEvent, { shares: ShareDirectory; clock: Clock }> {
  protected readonly definition = redeemShareCode;
}
