import { CommandHandler } from '@nestjs/cqrs';
import { command, PipelineCommand, PipelineHandler } from '../../../platform/src/index.js';
import { scheduleDecider, scheduleStream, type ScheduleCommand, type ScheduleEvent, type ScheduleState } from '../domain/schedule.js';
import { ScheduleSealing } from './schedule-sealing.js';

/** A due run's outcome: its result, or the schedule's stop when the run found it cannot go on. */
type RecordRun = Extract<ScheduleCommand, { type: 'RecordRun' | 'StopSchedule' }>;

/** A due run's result (the re-verification job). Run numbers make it idempotent: a run recorded once records nothing again. */
export const recordReverificationRun = command<RecordRun, ScheduleState, ScheduleEvent, { sealing: ScheduleSealing }>({
  name: 'banking.record-reverification-run',
  stream: (input) => scheduleStream(input.account_id, input.schedule_id),
  decider: scheduleDecider,
  // Every reader of a schedule stream folds through this codec (docs/adr/0055): the address is sealed under the customer's key.
  inject: { sealing: ScheduleSealing },
  codec: ({ sealing }) => sealing.codec(),
  // A cancellation landing first is decided on: the run is then not recorded.
  onConflict: { retry: 3 },
});

export class RecordReverificationRunCommand extends PipelineCommand<RecordRun, ScheduleState, ScheduleEvent> {}

@CommandHandler(RecordReverificationRunCommand)
export class RecordReverificationRunHandler extends PipelineHandler<RecordRun, ScheduleState, ScheduleEvent, { sealing: ScheduleSealing }> {
  protected readonly definition = recordReverificationRun;
}
