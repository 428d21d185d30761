import { command } from '../../../platform/src/index.js';
import { loanDecider, loanStream, type LoanEvent, type LoanState, type RegisterLoan } from '../domain/loan.js';
import { COLLECTION_LOANS_READ_MODEL } from '../public/collection-loans.read-model.js';
import { LoanSealing } from './loan-sealing.js';

/**
 * POST /v2/collections/register: the loan's terms on its own stream; the same terms again record nothing.
 * The zone is stored sealed under the borrower's data key (docs/adr/0055): every reader of a loan stream
 * folds through this declaration (`commands.read(registerLoan, …)`), so through its codec. The slices that
 * register (one, in bulk) or read loans (re-verification, borrower location) share it from here.
 */
export const registerLoan = command<RegisterLoan, LoanState, LoanEvent, { sealing: LoanSealing }>({
  name: 'banking.register-loan',
  stream: (input) => loanStream(input.account_id, input.loan_id),
  decider: loanDecider,
  inject: { sealing: LoanSealing },
  codec: ({ sealing }) => sealing.codec(),
  // Every rule is in the decider: a concurrent registration of the same loan is decided again on its terms.
  onConflict: { retry: 3 },
  // Portfolio risk reads the book from the read model: a loan registered is in the next assessment.
  awaits: [COLLECTION_LOANS_READ_MODEL.name],
});

/** As `registerLoan`, for the items of a bulk registration: the batch waits for the read model once, at its end. */
export const registerLoanInBulk = command<RegisterLoan, LoanState, LoanEvent, { sealing: LoanSealing }>({
  name: 'banking.register-loan-in-bulk',
  stream: registerLoan.stream,
  decider: loanDecider,
  inject: registerLoan.inject,
  codec: registerLoan.codec,
  onConflict: { retry: 3 },
});
