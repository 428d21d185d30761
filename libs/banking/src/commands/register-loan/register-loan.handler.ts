import { CommandHandler } from '@nestjs/cqrs';
import { PipelineCommand, PipelineHandler } from '../../../../platform/src/index.js';
import type { LoanEvent, LoanState, RegisterLoan } from '../../domain/loan.js';
import { registerLoan } from '../../loans/loan-commands.js';
import { LoanSealing } from '../../loans/loan-sealing.js';

/** POST /v2/collections/register, declared in loans/loan-commands.ts (every reader of a loan stream folds through it). */
export class RegisterLoanCommand extends PipelineCommand<RegisterLoan, LoanState, LoanEvent> {}

@CommandHandler(RegisterLoanCommand)
export class RegisterLoanHandler extends PipelineHandler<RegisterLoan, LoanState, LoanEvent, { sealing: LoanSealing }> {
  protected readonly definition = registerLoan;
}
