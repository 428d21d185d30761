import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { CommandPipeline } from '../../../../platform/src/index.js';
import { JobNotFoundError, jobDecider, jobStream, type JobState } from '../../domain/job.js';

/** A job of the calling account, folded from its stream (always current); another account's id finds no stream: 404. */
export class GetJobQuery extends Query<JobState> {
  constructor(
    readonly accountId: string,
    readonly jobId: string,
  ) {
    super();
  }
}

@QueryHandler(GetJobQuery)
export class GetJobHandler implements IQueryHandler<GetJobQuery> {
  constructor(private readonly commands: CommandPipeline) {}

  async execute({ accountId, jobId }: GetJobQuery): Promise<JobState> {
    const { state } = await this.commands.read({ decider: jobDecider }, jobStream(accountId, jobId));
    if (state.status === 'none') throw new JobNotFoundError(jobId);
    return state;
  }
}
