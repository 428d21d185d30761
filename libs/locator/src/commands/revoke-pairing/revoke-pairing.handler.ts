import { CommandHandler } from '@nestjs/cqrs';
import { command, PipelineCommand, PipelineHandler } from '../../../../platform/src/index.js';
import { shareDecider, type RevokePairing, type ShareEvent, type ShareState } from '../../domain/share.js';

/** A pairing's revocation, on its share's stream (found through the read model by pairing id). */
export type RevokePairingInput = RevokePairing & { stream: string };

/**
 * DELETE /v2/locator/viewers/{pairingId} (the owner stops one viewer) and
 * DELETE /v2/locator/watching/{pairingId} (a viewer stops watching): that
 * pairing only, every other share untouched (interface.md, "Partner locator").
 */
export const revokePairing = command<RevokePairingInput, ShareState, ShareEvent>({
  name: 'locator.revoke-pairing',
  stream: (input) => input.stream,
  decider: shareDecider,
  // Every rule is in the decider; the only other writer is another revocation, after which deciding again answers PAIRING_NOT_FOUND.
  onConflict: { retry: 3 },
  // The lists must not show the pairing once the revocation is acknowledged (location reads check the stream itself).
  awaits: ['locator_shares'],
});

export class RevokePairingCommand extends PipelineCommand<RevokePairingInput, ShareState, ShareEvent> {}

@CommandHandler(RevokePairingCommand)
export class RevokePairingHandler extends PipelineHandler<RevokePairingInput, ShareState, ShareEvent> {
  protected readonly definition = revokePairing;
}
