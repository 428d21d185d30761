import { CommandHandler } from '@nestjs/cqrs';
import { command, PipelineCommand, PipelineHandler } from '../../../../platform/src/index.js';
import { positionDecider, positionStream, type CheckIn, type PositionEvent, type PositionState } from '../../domain/position.js';
import { PositionSealing } from '../../public/position-sealing.js';

/** POST /v2/locator/checkin: the caller's own position, sealed under their data key by the stream's codec. */
export const checkIn = command<CheckIn, PositionState, PositionEvent, { sealing: PositionSealing }>({
  name: 'locator.check-in',
  stream: (input) => positionStream(input.account_id),
  decider: positionDecider,
  inject: { sealing: PositionSealing },
  codec: ({ sealing }) => sealing.codec(),
  // No rule depends on earlier check-ins: two devices of one person checking in together both land, the later one is the latest.
  onConflict: { retry: 10 },
  // No read model: viewers read the stream's last event (through the codec) at request time.
});

export class CheckInCommand extends PipelineCommand<CheckIn, PositionState, PositionEvent> {}

@CommandHandler(CheckInCommand)
export class CheckInHandler extends PipelineHandler<CheckIn, PositionState, PositionEvent, { sealing: PositionSealing }> {
  protected readonly definition = checkIn;
}
