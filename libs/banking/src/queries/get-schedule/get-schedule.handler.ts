import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { CommandPipeline } from '../../../../platform/src/index.js';
import { publicSchedule } from '../../reverification/schedule.answer.js';
import { ScheduleNotFoundError } from '../../domain/errors.js';
import { scheduleStream } from '../../domain/schedule.js';
import { recordReverificationRun } from '../../reverification/record-run.handler.js';
import { scheduleView } from '../../public/reverification-schedules.read-model.js';

/** GET /v2/verify/schedule/{id}. */
export class GetScheduleQuery extends Query<ReturnType<typeof publicSchedule>> {
  constructor(
    readonly accountId: string,
    readonly scheduleId: string,
  ) {
    super();
  }
}

/** From the schedule's own stream (always current), through its codec: the address reads null once the customer's data was erased. */
@QueryHandler(GetScheduleQuery)
export class GetScheduleHandler implements IQueryHandler<GetScheduleQuery> {
  constructor(private readonly commands: CommandPipeline) {}

  async execute({ accountId, scheduleId }: GetScheduleQuery) {
    const { state } = await this.commands.read(recordReverificationRun, scheduleStream(accountId, scheduleId));
    if (state.status === 'none') throw new ScheduleNotFoundError(scheduleId);
    return publicSchedule(scheduleView(scheduleId, accountId, state));
  }
}
