import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, command, CommandPipeline, type Clock, type DeclaredCommandHandler, type AnswerOf } from '../../../../platform/src/index.js';
import { AccountNames } from '../../account-names.js';
import { ShareCodeInvalidError } from '../../domain/errors.js';
import { ShareCodes } from '../../share-codes.js';
import { MAX_VIEWERS, MAX_WATCHING, shareDecider, shareStream, type RedeemShareCode, type ShareEvent, type ShareState } from '../../domain/share.js';
import { ShareDirectory } from '../../public/shares.read-model.js';
import { RedeemAttempts } from './redeem-attempts.js';
import type { RedeemShareCodeAnswerSchema } from './redeem-share-code.answer.js';

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

export type Redemption = AnswerOf<typeof RedeemShareCodeAnswerSchema>;

/** A code as typed by the signed-in viewer, from the client IP its failures are counted against. */
export class RedeemShareCodeCommand extends Command<Redemption> {
  constructor(
    readonly viewerAccountId: string,
    readonly clientIp: string,
    readonly code: string,
  ) {
    super();
  }
}

/** Throttles wrong codes (per account and IP), runs the declaration on the stream the code's digest names. */
@CommandHandler(RedeemShareCodeCommand)
export class RedeemShareCodeHandler implements ICommandHandler<RedeemShareCodeCommand>, DeclaredCommandHandler {
  declaration() {
    return redeemShareCode;
  }

  constructor(
    private readonly pipeline: CommandPipeline,
    private readonly codes: ShareCodes,
    private readonly attempts: RedeemAttempts,
    private readonly names: AccountNames,
  ) {}

  async execute({ viewerAccountId: viewer, clientIp, code }: RedeemShareCodeCommand): Promise<Redemption> {
    await this.attempts.check(viewer, clientIp);
    const codeDigest = await this.codes.digest(code);
    let state;
    try {
      ({ state } = await this.pipeline.run(redeemShareCode, {
        type: 'RedeemShareCode',
        code_digest: codeDigest,
        viewer_account_id: viewer,
        existing_pairing_id: null,
        owner_viewers: 0,
        viewer_watching: 0,
      }));
    } catch (error) {
      if (error instanceof ShareCodeInvalidError) await this.attempts.failed(viewer, clientIp);
      throw error;
    }
    if (state.status !== 'paired') throw new Error('a redemption left no pairing');
    const target = state.offer.owner_account_id;
    return { pairing_id: state.offer.share_id, target_id: target, target_name: this.names.of(target), paired_at: state.pairing.paired_at, expires_at: state.pairing.expires_at };
  }
}
