// Test helper: the loan sealing (docs/adr/0055) for specs outside the context that build stored registrations.
export { LoanSealing, BORROWER_REF_SUBJECT, isSealedLoan } from '../loans/loan-sealing.js';
