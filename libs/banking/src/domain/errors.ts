import { DomainError } from '../../../platform/src/errors.js';

/** POST /v2/collections/locate without the customer's `loan_collections` consent (interface.md, "Consent states"). */
export class CollectionsConsentRequiredError extends DomainError {
  readonly code = 'CONSENT_REQUIRED';
  readonly status = 403;
  override readonly details: Readonly<Record<string, unknown>>;
  constructor(customerId: string, found: { status: string; purpose: string | null }) {
    super(
      found.status === 'granted'
        ? `customer ${customerId} granted location consent for the purpose ${found.purpose}, not loan_collections: ask for a consent with purpose loan_collections`
        : `customer ${customerId} has no granted location consent with purpose loan_collections (consent is ${found.status})`,
    );
    this.details = { missing_consent: 'loan_collections', customer_id: customerId, consent_status: found.status, consent_purpose: found.purpose };
  }
}

export class LoanNotFoundError extends DomainError {
  readonly code = 'LOAN_NOT_FOUND';
  readonly status = 404;
  constructor(loanId: string) {
    super(`no loan ${loanId} is registered for collections under this account`);
  }
}

export class ScheduleNotFoundError extends DomainError {
  readonly code = 'SCHEDULE_NOT_FOUND';
  readonly status = 404;
  constructor(scheduleId: string) {
    super(`no re-verification schedule ${scheduleId} under this account`);
  }
}

/** A schedule needs an address to verify: given, the loan's zone, or the customer's last KYC address. */
export class NothingToVerifyError extends DomainError {
  readonly code = 'ADDRESS_REQUIRED';
  readonly status = 400;
  override readonly field = 'address';
  constructor(customerId: string) {
    super(`customer ${customerId} has no address verified before and no loan zone: send the address to re-verify`);
  }
}
