import { randomUUID } from 'node:crypto';
import { Inject, Optional } from '@nestjs/common';
import { Command, CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { hexCodeForPoint } from '../../../../addressing/src/index.js';
import { VERIFIED_ADDRESSES, type VerifiedAddresses } from '../../../../identity/src/index.js';
import { parseCustomerId } from '../../../../monitoring/src/index.js';
import { CLOCK, CommandPipeline, InvalidParamError, JOB_QUEUE, type Clock, type JobQueue } from '../../../../platform/src/index.js';
import { LoanNotFoundError, NothingToVerifyError } from '../../domain/errors.js';
import { loanStream, parseLoanId } from '../../domain/loan.js';
import { registerLoan } from '../../loans/loan-commands.js';
import type { ScheduleState, ScheduleTerms } from '../../domain/schedule.js';
import { enqueueRun } from '../../reverification/reverification-jobs.js';
import { RecordReverificationScheduleCommand } from './schedule-reverification.handler.js';
import type { ScheduleReverificationRequest } from './schedule-reverification.request.js';

/**
 * POST /v2/verify/schedule, across aggregates: the subject is resolved (a
 * loan's borrower and zone, or a customer and their latest verified address),
 * the schedule recorded, and its first run put on the job queue. Should the
 * process stop between the record and the enqueue, the next start's
 * reconciliation queues it (ReverificationLifecycle).
 */
export class ScheduleReverificationCommand extends Command<{ schedule_id: string; state: Exclude<ScheduleState, { status: 'none' }> }> {
  constructor(
    readonly accountId: string,
    readonly request: ScheduleReverificationRequest,
  ) {
    super();
  }
}

@CommandHandler(ScheduleReverificationCommand)
export class ScheduleReverificationProcess implements ICommandHandler<ScheduleReverificationCommand> {
  constructor(
    private readonly bus: CommandBus,
    private readonly commands: CommandPipeline,
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    @Inject(CLOCK) private readonly clock: Clock,
    @Optional() @Inject(VERIFIED_ADDRESSES) private readonly verified?: VerifiedAddresses,
  ) {}

  async execute({ accountId, request: body }: ScheduleReverificationCommand) {
    const terms = await this.terms(accountId, body);
    const schedule_id = `rvs_${randomUUID().replace(/-/g, '')}`;
    const { state } = await this.bus.execute(new RecordReverificationScheduleCommand({ type: 'CreateSchedule', account_id: accountId, schedule_id, terms }));
    if (state.status !== 'active') throw new Error('a new schedule is not active');
    await enqueueRun(this.queue, { account_id: accountId, schedule_id, run: 1 }, state.first_due_at, this.clock.now());
    return { schedule_id, state };
  }

  private async terms(accountId: string, body: ScheduleReverificationRequest): Promise<ScheduleTerms> {
    if ((body.loan_id === undefined) === (body.customer_id === undefined)) throw new InvalidParamError('give exactly one of loan_id and customer_id', body.loan_id === undefined ? 'loan_id' : 'customer_id');
    const base = { every_days: body.every_days, method: body.method ?? 'kyc_address' } as const;
    if (body.loan_id !== undefined) {
      const loanId = parseLoanId(body.loan_id);
      const { state } = await this.commands.read(registerLoan, loanStream(accountId, loanId));
      if (state.status !== 'registered') throw new LoanNotFoundError(loanId);
      const { zone, anchor } = state.terms;
      // The loan zone as an address: a hex zone's own code, else the address code of the zone's anchor point.
      const address = body.address ?? (zone.type === 'hex' ? zone.code : hexCodeForPoint(anchor.lat, anchor.lng));
      return { ...base, customer_id: state.terms.customer_id, loan_id: loanId, address };
    }
    let customerId: string;
    try {
      customerId = parseCustomerId(body.customer_id);
    } catch (error) {
      if (error instanceof InvalidParamError) throw new InvalidParamError(error.message, 'customer_id');
      throw error;
    }
    const address = body.address ?? (await this.lastVerifiedAddress(accountId, customerId));
    if (!address) throw new NothingToVerifyError(customerId);
    return { ...base, customer_id: customerId, loan_id: null, address };
  }

  /** The address code of the customer's latest KYC verification, through identity's port (sealed under the customer's key, ADR 0054), if any; none without identity. */
  private async lastVerifiedAddress(accountId: string, customerId: string): Promise<string | undefined> {
    return this.verified?.lastVerifiedAddressCode(accountId, customerId);
  }
}
