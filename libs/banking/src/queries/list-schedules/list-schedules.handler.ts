import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { publicSchedule } from '../../reverification/schedule.answer.js';
import { ReverificationSchedules } from '../../public/reverification-schedules.read-model.js';
import type { AnswerOf } from '../../../../platform/src/index.js';
import type { ReverificationSchedulePageSchema } from './list-schedules.answer.js';

export type SchedulePage = AnswerOf<typeof ReverificationSchedulePageSchema>;

/** GET /v2/verify/schedules. */
export class ListSchedulesQuery extends Query<SchedulePage> {
  constructor(
    readonly accountId: string,
    readonly status: 'active' | 'cancelled' | 'stopped',
    readonly limit: number,
    readonly cursor: string | undefined,
  ) {
    super();
  }
}

/** The reverification_schedules read model, a page at a time. */
@QueryHandler(ListSchedulesQuery)
export class ListSchedulesHandler implements IQueryHandler<ListSchedulesQuery> {
  constructor(private readonly schedules: ReverificationSchedules) {}

  async execute({ accountId, status, limit, cursor }: ListSchedulesQuery): Promise<SchedulePage> {
    const page = await this.schedules.list(accountId, status, limit, cursor);
    // Each document opened: the customer from banking's key, the address from theirs (null once erased).
    const items = await Promise.all(page.items.map(async (doc) => publicSchedule(await this.schedules.view(doc))));
    return { items, next_cursor: page.nextCursor };
  }
}
