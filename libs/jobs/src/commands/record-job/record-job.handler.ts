import { CommandHandler } from '@nestjs/cqrs';
import { command, PipelineCommand, PipelineHandler } from '../../../../platform/src/index.js';
import { jobDecider, jobStream, type JobCommand, type JobEvent, type JobState } from '../../domain/job.js';

/** Every change of a job's state: queued by the api, started, progressed and finished by the worker that runs it. */
export const recordJob = command<JobCommand, JobState, JobEvent>({
  name: 'jobs.record-job',
  stream: (input) => jobStream(input.account_id, input.job_id),
  decider: jobDecider,
  onConflict: { retry: 5 },
});

export class RecordJobCommand extends PipelineCommand<JobCommand, JobState, JobEvent> {}

@CommandHandler(RecordJobCommand)
export class RecordJobHandler extends PipelineHandler<JobCommand, JobState, JobEvent> {
  protected readonly definition = recordJob;
}
