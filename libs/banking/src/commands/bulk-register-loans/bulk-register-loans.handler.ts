import { Command, CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CommandPipeline, DomainError, PipelineCommand, PipelineHandler, type AnswerOf } from '../../../../platform/src/index.js';
import { registrationOutcome, type LoanEvent, type LoanState, type RegisterLoan } from '../../domain/loan.js';
import type { LoanSealing } from '../../loans/loan-sealing.js';
import { loanRegistration } from '../../loans/loan-registration.js';
import { registerLoan, registerLoanInBulk } from '../../loans/loan-commands.js';
import type { BulkLoanRegistrationSchema } from './bulk-register-loans.answer.js';

export const MAX_BULK_LOANS = 10_000;
/** Registrations in flight at once: enough to keep the event store's group commit full, few enough to leave room for other requests. */
const CONCURRENCY = 16;

export type BulkOutcome = AnswerOf<typeof BulkLoanRegistrationSchema>['items'][number];

/**
 * POST /v2/collections/bulk-register: each item is a registration of its
 * own, on its loan's stream, so a retried batch is idempotent by loan_id
 * (items already registered with the same terms answer `unchanged`). A loan
 * id twice in one batch is refused the second time (which terms would hold
 * is otherwise a race). The answer waits once for the read model, as a
 * single registration does.
 */
/** One item of a bulk registration, as the batch's process dispatches it. */
export class RegisterLoanInBulkCommand extends PipelineCommand<RegisterLoan, LoanState, LoanEvent> {}

@CommandHandler(RegisterLoanInBulkCommand)
export class RegisterLoanInBulkHandler extends PipelineHandler<RegisterLoan, LoanState, LoanEvent, { sealing: LoanSealing }> {
  protected readonly definition = registerLoanInBulk;
}

export class BulkRegisterLoansCommand extends Command<BulkOutcome[]> {
  constructor(
    readonly accountId: string,
    readonly items: readonly unknown[],
  ) {
    super();
  }
}

/** The process: one RegisterLoanInBulkCommand per item, then one wait for the read model. */
@CommandHandler(BulkRegisterLoansCommand)
export class BulkRegisterLoansHandler implements ICommandHandler<BulkRegisterLoansCommand, BulkOutcome[]> {
  constructor(
    private readonly bus: CommandBus,
    private readonly commands: CommandPipeline,
  ) {}

  execute({ accountId, items }: BulkRegisterLoansCommand): Promise<BulkOutcome[]> {
    return bulkRegisterLoans(this.bus, this.commands, accountId, items);
  }
}

async function bulkRegisterLoans(bus: CommandBus, commands: CommandPipeline, accountId: string, items: readonly unknown[]): Promise<BulkOutcome[]> {
  const outcomes: BulkOutcome[] = new Array(items.length);
  const seen = new Set<string>();
  let last = 0n;
  let next = 0;
  const work = async () => {
    while (next < items.length) {
      const index = next++;
      const prefix = `loans[${index}].`;
      const raw = items[index];
      const loanId = typeof raw === 'object' && raw !== null && typeof (raw as { loan_id?: unknown }).loan_id === 'string' ? (raw as { loan_id: string }).loan_id : null;
      try {
        const input = loanRegistration(accountId, raw, prefix);
        if (seen.has(input.loan_id)) {
          outcomes[index] = { index, loan_id: input.loan_id, outcome: 'refused', error: { code: 'DUPLICATE_LOAN_ID', message: `loan ${input.loan_id} appears earlier in this batch`, field: `${prefix}loan_id` } };
          continue;
        }
        seen.add(input.loan_id);
        const result = await bus.execute(new RegisterLoanInBulkCommand(input));
        if (result.position !== undefined && result.position > last) last = result.position;
        outcomes[index] = { index, loan_id: input.loan_id, outcome: registrationOutcome(result.previous, result.events) as 'created' | 'updated' | 'unchanged' };
      } catch (error) {
        if (!(error instanceof DomainError) || error.status >= 500) throw error;
        outcomes[index] = { index, loan_id: loanId, outcome: 'refused', error: { code: error.code, message: error.message, ...(error.field ? { field: error.field } : {}) } };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, work));
  if (last > 0n) await commands.settle(registerLoan, last);
  return outcomes;
}
