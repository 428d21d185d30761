import { Inject } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { hexCodeForPoint } from '../../../../addressing/src/index.js';
import { CUSTOMER_LOCATIONS, type CustomerLocations } from '../../../../monitoring/src/index.js';
import { CLOCK, CommandPipeline, type Clock } from '../../../../platform/src/index.js';
import { CollectionsConsentRequiredError, LoanNotFoundError } from '../../domain/errors.js';
import { loanStream } from '../../domain/loan.js';
import { registerLoan } from '../../loans/loan-commands.js';
import { allowsCollections } from '../../positions/borrower-positions.js';
import { ZoneShape } from '../../zones/collection-zone.js';

/** GET (or POST) /v2/collections/locate. */
export class LocateBorrowerQuery extends Query<Awaited<ReturnType<LocateBorrowerHandler['locate']>>> {
  constructor(
    readonly accountId: string,
    readonly loanId: string,
  ) {
    super();
  }
}

/**
 * GET (or POST) /v2/collections/locate: the borrower's last known position
 * against the loan's collection zone. The loan comes from its stream (a loan
 * registered a moment ago is found), the consent from its stream (a revoke
 * acknowledged a moment ago is honoured), the position from monitoring.
 */
@QueryHandler(LocateBorrowerQuery)
export class LocateBorrowerHandler implements IQueryHandler<LocateBorrowerQuery> {
  constructor(
    private readonly commands: CommandPipeline,
    @Inject(CUSTOMER_LOCATIONS) private readonly locations: CustomerLocations,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  execute({ accountId, loanId }: LocateBorrowerQuery) {
    return this.locate(accountId, loanId);
  }

  async locate(accountId: string, loanId: string) {
    // Through the registration's codec: the zone is sealed under the borrower's key (an erased borrower's loan is not found).
    const { state: loan } = await this.commands.read(registerLoan, loanStream(accountId, loanId));
    if (loan.status !== 'registered') throw new LoanNotFoundError(loanId);
    const { customer_id, zone } = loan.terms;
    const consent = await this.locations.consent(accountId, customer_id);
    if (!allowsCollections(consent)) {
      throw new CollectionsConsentRequiredError(customer_id, { status: consent.status === 'granted' ? 'granted' : consent.status, purpose: consent.purpose });
    }
    const { position, drifting } = await this.locations.lastKnown(accountId, customer_id);
    const now = this.clock.now();
    const relation = position ? new ZoneShape(zone).relate(position.lat, position.lng) : null;
    return {
      loan_id: loanId,
      customer_id,
      zone,
      located: position !== null,
      position: position && { lat: position.lat, lng: position.lng, accuracy_m: position.accuracy_m },
      hex_code: position ? hexCodeForPoint(position.lat, position.lng) : null,
      inside_zone: relation?.inside ?? null,
      distance_m: relation?.distance_m ?? null,
      fix_at: position?.recorded_at ?? null,
      fix_age_s: position ? Math.max(0, Math.round((now.getTime() - Date.parse(position.recorded_at)) / 1000)) : null,
      monitoring_drifting: drifting,
      consent: { purpose: 'loan_collections', granted_at: consent.status === 'granted' ? consent.granted_at : null },
      as_of: now.toISOString(),
    };
  }
}
