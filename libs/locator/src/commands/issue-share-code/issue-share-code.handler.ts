import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, command, CommandPipeline, type Clock, type DeclaredCommandHandler, type AnswerOf } from '../../../../platform/src/index.js';
import { MAX_LIVE_CODES, SHARE_CODE_TTL_S, shareDecider, shareStream, type IssueShareCode, type ShareEvent, type ShareState } from '../../domain/share.js';
import { ShareCodes } from '../../share-codes.js';
import { ShareDirectory } from '../../public/shares.read-model.js';
import type { IssueShareCodeAnswerSchema } from './issue-share-code.answer.js';

/** POST /v2/locator/share-token: a new single-use code on a stream of its own (named by the code's keyed digest). */
export const issueShareCode = command<IssueShareCode, ShareState, ShareEvent, { shares: ShareDirectory; clock: Clock }>({
  name: 'locator.issue-share-code',
  stream: (input) => shareStream(input.code_digest),
  decider: shareDecider,
  inject: { shares: ShareDirectory, clock: CLOCK },
  // The cap counts the owner's live codes in the read model; concurrent mints may pass it together by a few, which a cap against hoarding codes tolerates.
  prepare: async (input, _loaded, { shares, clock }) => ({ ...input, live_codes: (await shares.liveCodes(input.owner_account_id, clock.now(), MAX_LIVE_CODES)).length }),
  // The stream is new by construction (a fresh 60-bit code); a conflict would be a second mint of the same code, never to be re-decided.
  onConflict: { retry: 0 },
  // The cap on live codes reads the read model: the owner's next mint must count this one.
  awaits: ['locator_shares'],
});

export type IssuedShareCode = AnswerOf<typeof IssueShareCodeAnswerSchema>;

/** A new code of the signed-in owner, optionally limiting the pairing it becomes and labelled. */
export class IssueShareCodeCommand extends Command<IssuedShareCode> {
  constructor(
    readonly ownerAccountId: string,
    readonly shareForS: number | null,
    readonly label: string | null,
  ) {
    super();
  }
}

/** Mints the code and its id, runs the declaration on the stream its digest names. */
@CommandHandler(IssueShareCodeCommand)
export class IssueShareCodeHandler implements ICommandHandler<IssueShareCodeCommand>, DeclaredCommandHandler {
  declaration() {
    return issueShareCode;
  }

  constructor(
    private readonly pipeline: CommandPipeline,
    private readonly codes: ShareCodes,
  ) {}

  async execute({ ownerAccountId, shareForS, label }: IssueShareCodeCommand): Promise<IssuedShareCode> {
    const { code, share_id } = this.codes.mint();
    const { state } = await this.pipeline.run(issueShareCode, {
      type: 'IssueShareCode',
      share_id,
      owner_account_id: ownerAccountId,
      code_digest: await this.codes.digest(code),
      share_for_s: shareForS,
      label,
      live_codes: 0,
    });
    if (state.status !== 'issued') throw new Error('issuing a share code left no issued code');
    return { share_id, code, expires_at: state.offer.code_expires_at, ttl_s: SHARE_CODE_TTL_S, share_for_s: state.offer.share_for_s, label: state.offer.label };
  }
}
