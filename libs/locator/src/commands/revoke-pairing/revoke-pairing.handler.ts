import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { command, CommandPipeline, type DeclaredCommandHandler, type AnswerOf } from '../../../../platform/src/index.js';
import { PairingNotFoundError } from '../../domain/errors.js';
import { shareDecider, type PairingSide, type RevokePairing, type ShareEvent, type ShareState } from '../../domain/share.js';
import { ShareDirectory } from '../../public/shares.read-model.js';
import type { RevokePairingAnswerSchema } from './revoke-pairing.answer.js';

export type RevokePairingAnswer = AnswerOf<typeof RevokePairingAnswerSchema>;

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

/** One side of a pairing ends it: the owner (`owner`) or the viewer (`viewer`). */
export class RevokePairingCommand extends Command<RevokePairingAnswer> {
  constructor(
    readonly actorAccountId: string,
    readonly pairingId: string,
    readonly side: PairingSide,
  ) {
    super();
  }
}

/** Finds the pairing's stream through the read model (a pairing the actor is not on that side of is not found), then runs the declaration. */
@CommandHandler(RevokePairingCommand)
export class RevokePairingHandler implements ICommandHandler<RevokePairingCommand>, DeclaredCommandHandler {
  declaration() {
    return revokePairing;
  }

  constructor(
    private readonly pipeline: CommandPipeline,
    private readonly shares: ShareDirectory,
  ) {}

  async execute({ actorAccountId: actor, pairingId, side }: RevokePairingCommand): Promise<RevokePairingAnswer> {
    const doc = await this.shares.byId(pairingId);
    const party = side === 'owner' ? doc?.owner_account_id : doc?.viewer_account_id;
    if (!doc || party !== actor) throw new PairingNotFoundError();
    const { events } = await this.pipeline.run(revokePairing, { type: 'RevokePairing', share_id: pairingId, actor_account_id: actor, side, stream: doc.stream });
    const revoked = events.find((event) => event.type === 'LocatorPairingRevoked');
    if (!revoked) throw new Error('a revocation appended no LocatorPairingRevoked');
    return { pairing_id: pairingId, revoked: true, revoked_at: revoked.data.revoked_at };
  }
}
