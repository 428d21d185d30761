import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { command, CommandPipeline, type DeclaredCommandHandler, type AnswerOf } from '../../../../platform/src/index.js';
import { ShareCodeNotFoundError } from '../../domain/errors.js';
import { ShareDirectory } from '../../public/shares.read-model.js';
import { shareDecider, type CancelShareCode, type ShareEvent, type ShareState } from '../../domain/share.js';
import type { CancelShareCodeAnswerSchema } from './cancel-share-code.answer.js';

export type CancelShareCodeAnswer = AnswerOf<typeof CancelShareCodeAnswerSchema>;

/** A code's cancellation, on its share's stream (found through the read model by share id). */
export type CancelShareCodeInput = CancelShareCode & { stream: string };

/** DELETE /v2/locator/share-token/{shareId}: the owner takes back an unused code; redeeming it is then SHARE_CODE_INVALID. */
export const cancelShareCode = command<CancelShareCodeInput, ShareState, ShareEvent>({
  name: 'locator.cancel-share-code',
  stream: (input) => input.stream,
  decider: shareDecider,
  // Every rule is in the decider: against a redemption that got in first, deciding again answers SHARE_CODE_NOT_FOUND.
  onConflict: { retry: 3 },
  // The owner's list of pending codes must not show it once the cancellation is acknowledged.
  awaits: ['locator_shares'],
});

/** The owner's cancellation of one of their codes, by share id. */
export class CancelShareCodeCommand extends Command<CancelShareCodeAnswer> {
  constructor(
    readonly ownerAccountId: string,
    readonly shareId: string,
  ) {
    super();
  }
}

/** Finds the code's stream through the read model (another owner's code is as unknown as a made-up id), then runs the declaration. */
@CommandHandler(CancelShareCodeCommand)
export class CancelShareCodeHandler implements ICommandHandler<CancelShareCodeCommand>, DeclaredCommandHandler {
  declaration() {
    return cancelShareCode;
  }

  constructor(
    private readonly pipeline: CommandPipeline,
    private readonly shares: ShareDirectory,
  ) {}

  async execute({ ownerAccountId: owner, shareId }: CancelShareCodeCommand): Promise<CancelShareCodeAnswer> {
    const doc = await this.shares.byId(shareId);
    if (!doc || doc.owner_account_id !== owner) throw new ShareCodeNotFoundError();
    const { events } = await this.pipeline.run(cancelShareCode, { type: 'CancelShareCode', share_id: shareId, actor_account_id: owner, stream: doc.stream });
    const cancelled = events.find((event) => event.type === 'LocatorShareCodeCancelled');
    if (!cancelled) throw new Error('a cancellation appended no LocatorShareCodeCancelled');
    return { share_id: shareId, cancelled: true, cancelled_at: cancelled.data.cancelled_at };
  }
}
