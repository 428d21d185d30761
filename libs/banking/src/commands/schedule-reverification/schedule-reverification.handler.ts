import { CommandHandler } from '@nestjs/cqrs';
import { command, PipelineCommand, PipelineHandler } from '../../../../platform/src/index.js';
import { scheduleDecider, scheduleStream, type ScheduleCommand, type ScheduleEvent, type ScheduleState } from '../../domain/schedule.js';
import { REVERIFICATION_SCHEDULES_READ_MODEL } from '../../public/reverification-schedules.read-model.js';
import { recordReverificationRun } from '../../reverification/record-run.handler.js';
import type { ScheduleSealing } from '../../reverification/schedule-sealing.js';

type CreateSchedule = Extract<ScheduleCommand, { type: 'CreateSchedule' }>;

/** POST /v2/verify/schedule: a new schedule on its own stream (a fresh id per request). */
export const scheduleReverification = command<CreateSchedule, ScheduleState, ScheduleEvent, { sealing: ScheduleSealing }>({
  name: 'banking.schedule-reverification',
  stream: (input) => scheduleStream(input.account_id, input.schedule_id),
  decider: scheduleDecider,
  // The address is stored sealed under the customer's data key (docs/adr/0055).
  inject: recordReverificationRun.inject,
  codec: recordReverificationRun.codec,
  // The stream is new by construction; a retry decides again and records nothing twice.
  onConflict: { retry: 3 },
  // GET /v2/verify/schedules lists it at once.
  awaits: [REVERIFICATION_SCHEDULES_READ_MODEL.name],
});

/** The schedule's record, as the slice's process dispatches it (schedule-reverification.process.ts). */
export class RecordReverificationScheduleCommand extends PipelineCommand<CreateSchedule, ScheduleState, ScheduleEvent> {}

@CommandHandler(RecordReverificationScheduleCommand)
export class RecordReverificationScheduleHandler extends PipelineHandler<CreateSchedule, ScheduleState, ScheduleEvent, { sealing: ScheduleSealing }> {
  protected readonly definition = scheduleReverification;
}
