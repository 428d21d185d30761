import { Inject } from '@nestjs/common';
import { Command, CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { command, EVENT_STORE, PipelineCommand, PipelineHandler, StreamNotFoundError, type EventStore, type AnswerOf } from '../../../../platform/src/index.js';
import { erasureDecider, erasureStream, positionStream, type ErasureState, type LocatorPositionsErased, type RecordErasure } from '../../domain/position.js';
import { PositionSealing } from '../../public/position-sealing.js';
import type { ErasePositionsAnswerSchema } from './erase-positions.answer.js';

/** The answer but its `erased: true`, which the controller adds. */
export type PositionsErased = Omit<AnswerOf<typeof ErasePositionsAnswerSchema>, 'erased'>;

/** The record of an erasure: who and when, never a position. */
export const recordErasure = command<RecordErasure, ErasureState, LocatorPositionsErased>({
  name: 'locator.record-erasure',
  stream: (input) => erasureStream(input.account_id),
  decider: erasureDecider,
  // Records only; each request is one more record, whatever else was recorded meanwhile.
  onConflict: { retry: 5 },
});

export class RecordErasureCommand extends PipelineCommand<RecordErasure, ErasureState, LocatorPositionsErased> {}

@CommandHandler(RecordErasureCommand)
export class RecordErasureHandler extends PipelineHandler<RecordErasure, ErasureState, LocatorPositionsErased> {
  protected readonly definition = recordErasure;
}

/** DELETE /v2/locator/data, by the signed-in account, from the calling token (named by its prefix). */
export class ErasePositionsCommand extends Command<PositionsErased> {
  constructor(
    readonly accountId: string,
    readonly erasedBy: string,
  ) {
    super();
  }
}

/**
 * DELETE /v2/locator/data: erases every check-in of the caller, at once and
 * for real (docs/adr/0020, after ADR 12): (1) destroy the owner's data key, so
 * every copy of a position anywhere is ciphertext without a key; (2) delete
 * the position stream; (3) record the erasure. Each step is idempotent, so a
 * request that failed half way is finished by repeating it. Pairings and
 * codes are not touched (they hold no location): viewers see `position: null`
 * until the next check-in, which starts over under a new key.
 */
@CommandHandler(ErasePositionsCommand)
export class ErasePositionsHandler implements ICommandHandler<ErasePositionsCommand> {
  constructor(
    private readonly commands: CommandBus,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly sealing: PositionSealing,
  ) {}

  async execute({ accountId, erasedBy }: ErasePositionsCommand): Promise<PositionsErased> {
    await this.sealing.shred(accountId);
    const stream = positionStream(accountId);
    let count = 0;
    try {
      const [last] = await this.events.readStream(stream, { direction: 'backwards', maxCount: 1 });
      count = last ? Number(last.revision) + 1 : 0;
      await this.events.deleteStream(stream);
    } catch (error) {
      if (!(error instanceof StreamNotFoundError)) throw error;
    }
    const { events } = await this.commands.execute(new RecordErasureCommand({ type: 'RecordErasure', account_id: accountId, events_erased: count, erased_by: erasedBy }));
    return { events_erased: count, erased_at: events[0].data.erased_at };
  }
}
