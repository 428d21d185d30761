import { CommandHandler } from '@nestjs/cqrs';
import { CLOCK, command, PipelineCommand, PipelineHandler, type Clock } from '../../../../platform/src/index.js';
import { MAX_LIVE_CODES, shareDecider, shareStream, type IssueShareCode, type ShareEvent, type ShareState } from '../../domain/share.js';
import { ShareDirectory } from '../../shares.read-model.js';

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

export class IssueShareCodeCommand extends PipelineCommand<IssueShareCode, ShareState, ShareEvent> {}

@CommandHandler(IssueShareCodeCommand)
export class IssueShareCodeHandler extends PipelineHandler<IssueShareCode, ShareState, ShareEvent, { shares: ShareDirectory; clock: Clock }> {
  protected readonly definition = issueShareCode;
}
