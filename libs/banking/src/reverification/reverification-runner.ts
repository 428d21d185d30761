import type { CommandBus } from '@nestjs/cqrs';
import { verificationStream, VerifyKycCommand, type AddressVerified } from '../../../identity/src/index.js';
import type { CustomerLocations } from '../../../monitoring/src/index.js';
import { CommandPipeline, DomainError, StreamNotFoundError, type Clock, type EventStore, type Job, type JobQueue, type JsonLogger } from '../../../platform/src/index.js';
import { scheduleStream, type ReverificationCompleted } from '../domain/schedule.js';
import { recordReverificationRun, RecordReverificationRunCommand } from './record-run.handler.js';
import { enqueueRun, runVerificationId, type ReverificationJob } from './reverification-jobs.js';

type Outcome = Pick<ReverificationCompleted['data'], 'verification_id' | 'result' | 'score' | 'error'>;

/**
 * Runs a due re-verification: identity's address verification (as POST
 * /v2/kyc/verify with no positions sent: the evidence is the pings recorded
 * for the customer in the last 30 days, under their consent), recorded as
 * `ReverificationCompleted` on the schedule's stream (which fires the
 * `reverification.completed` webhook), then the next run is put on the queue.
 *
 * Every step may be repeated after a crash without doubling anything: the
 * verification id is derived from (schedule, run), the run number makes the
 * record idempotent, the next job's id names its run.
 */
export class ReverificationRunner {
  constructor(
    private readonly bus: CommandBus,
    private readonly commands: CommandPipeline,
    private readonly events: EventStore,
    private readonly queue: JobQueue,
    private readonly clock: Clock,
    private readonly logger: JsonLogger,
    private readonly locations: Pick<CustomerLocations, 'consent'>,
  ) {}

  async handle(job: Job<ReverificationJob>): Promise<void> {
    const { account_id, schedule_id, run } = job.data;
    const { state } = await this.commands.read(recordReverificationRun, scheduleStream(account_id, schedule_id));
    if (state.status !== 'active') return;
    const now = this.clock.now();
    if (run <= state.runs) {
      // Recorded before a crash took the rest: make sure the next run is queued.
      await enqueueRun(this.queue, { account_id, schedule_id, run: state.runs + 1 }, state.next_due_at, now);
      return;
    }
    if (run !== state.runs + 1) return;
    if (now.getTime() < Date.parse(state.next_due_at)) {
      // Woke early (a clock set back, a delay cut short): go back to sleep until due.
      await enqueueRun(this.queue, job.data, state.next_due_at, now, job.attemptsMade + Math.floor(now.getTime() / 1000));
      return;
    }
    // Revoked consent ends the schedule, said on it (issue 31): the pings a run verifies on are no longer collected, and
    // after delete-data they are gone. A customer who never granted one keeps the old behaviour (insufficient evidence).
    if ((await this.locations.consent(account_id, state.terms.customer_id)).status === 'revoked') {
      await this.bus.execute(new RecordReverificationRunCommand({ type: 'StopSchedule', account_id, schedule_id, reason: 'consent_revoked' }));
      return;
    }
    // The address no longer opens: the customer's data key was destroyed (an erasure whose stop is not recorded yet).
    if (state.terms.address === null) {
      await this.bus.execute(new RecordReverificationRunCommand({ type: 'StopSchedule', account_id, schedule_id, reason: 'data_erased' }));
      return;
    }
    const outcome = await this.verify(account_id, state.terms.customer_id, state.terms.address, runVerificationId(schedule_id, run));
    const recorded = await this.bus.execute(new RecordReverificationRunCommand({ type: 'RecordRun', account_id, schedule_id, run, outcome }));
    if (recorded.state.status === 'active') await enqueueRun(this.queue, { account_id, schedule_id, run: run + 1 }, recorded.state.next_due_at, this.clock.now());
  }

  private async verify(accountId: string, customerId: string, address: string, verificationId: string): Promise<Outcome> {
    try {
      const { events } = await this.bus.execute(
        new VerifyKycCommand({
        type: 'RecordAddressVerification',
        verification_id: verificationId,
        account_id: accountId,
        customer_id: customerId,
        address,
        positions: [],
        use_recorded_pings: true,
        device_id: null,
        phone: null,
        email: null,
        client_ip: null,
        }),
      );
      const verified = (events as AddressVerified[])[0] ?? (await this.recorded(accountId, customerId, verificationId));
      if (!verified) throw new Error(`verification ${verificationId} was neither recorded now nor before`);
      return { verification_id: verificationId, result: verified.data.result, score: verified.data.score, error: null };
    } catch (error) {
      // The customer's side of things (an address that no longer resolves): the run is recorded as failed, the schedule goes on.
      if (error instanceof DomainError && error.status < 500) {
        this.logger.warn({ msg: 'a scheduled re-verification could not verify', code: error.code });
        return { verification_id: null, result: 'failed', score: null, error: { code: error.code, message: error.message } };
      }
      throw error;
    }
  }

  /** The verification recorded under this id by an earlier try of the run. */
  private async recorded(accountId: string, customerId: string, verificationId: string): Promise<AddressVerified | undefined> {
    try {
      const recent = await this.events.readStream(verificationStream(accountId, customerId), { direction: 'backwards', maxCount: 100 });
      const found = recent.find((event) => event.type === 'AddressVerified' && event.data.verification_id === verificationId);
      return found && ({ type: 'AddressVerified', data: found.data } as AddressVerified);
    } catch (error) {
      if (error instanceof StreamNotFoundError) return undefined;
      throw error;
    }
  }
}
