import { CommandHandler } from '@nestjs/cqrs';
import { command, PipelineCommand, PipelineHandler } from '../../../../platform/src/index.js';
import { scheduleDecider, scheduleStream, type ScheduleCommand, type ScheduleEvent, type ScheduleState } from '../../domain/schedule.js';
import { REVERIFICATION_SCHEDULES_READ_MODEL } from '../../public/reverification-schedules.read-model.js';
import { recordReverificationRun } from '../../reverification/record-run.handler.js';
import type { ScheduleSealing } from '../../reverification/schedule-sealing.js';

type CancelSchedule = Extract<ScheduleCommand, { type: 'CancelSchedule' }>;

/** DELETE /v2/verify/schedule/{id}. */
export const cancelReverificationSchedule = command<CancelSchedule, ScheduleState, ScheduleEvent, { sealing: ScheduleSealing }>({
  name: 'banking.cancel-reverification-schedule',
  stream: (input) => scheduleStream(input.account_id, input.schedule_id),
  decider: scheduleDecider,
  inject: recordReverificationRun.inject,
  codec: recordReverificationRun.codec,
  onConflict: { retry: 3 },
  awaits: [REVERIFICATION_SCHEDULES_READ_MODEL.name],
});

export class CancelScheduleCommand extends PipelineCommand<CancelSchedule, ScheduleState, ScheduleEvent> {}

@CommandHandler(CancelScheduleCommand)
export class CancelScheduleHandler extends PipelineHandler<CancelSchedule, ScheduleState, ScheduleEvent, { sealing: ScheduleSealing }> {
  protected readonly definition = cancelReverificationSchedule;
}
