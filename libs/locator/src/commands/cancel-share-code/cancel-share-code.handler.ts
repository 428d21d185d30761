import { CommandHandler } from '@nestjs/cqrs';
import { command, PipelineCommand, PipelineHandler } from '../../../../platform/src/index.js';
import { shareDecider, type CancelShareCode, type ShareEvent, type ShareState } from '../../domain/share.js';

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

export class CancelShareCodeCommand extends PipelineCommand<CancelShareCodeInput, ShareState, ShareEvent> {}

@CommandHandler(CancelShareCodeCommand)
export class CancelShareCodeHandler extends PipelineHandler<CancelShareCodeInput, ShareState, ShareEvent> {
  protected readonly definition = cancelShareCode;
}
