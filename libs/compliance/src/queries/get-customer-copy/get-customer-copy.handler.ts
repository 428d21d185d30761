import { Inject } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { CLOCK, CONFIG, RATE_LIMITER, type Clock, type Config, type RateLimiter } from '../../../../platform/src/index.js';
import { CustomerCopies, takeCopyAllowance, type SignedCustomerCopy } from './customer-copies.js';

export { CUSTOMER_COPY_FORMAT, CUSTOMER_COPY_TYP, type CustomerCopy, type SignedCustomerCopy } from './customer-copies.js';

/** POST /v2/consent/access-request. */
export class GetCustomerCopyQuery extends Query<SignedCustomerCopy> {
  constructor(
    readonly accountId: string,
    readonly customerId: string,
    readonly cursor: string | null,
    readonly limit: number,
    readonly cursors: { verifications: string | null; deliveries: string | null } = { verifications: null, deliveries: null },
  ) {
    super();
  }
}

@QueryHandler(GetCustomerCopyQuery)
export class GetCustomerCopyHandler implements IQueryHandler<GetCustomerCopyQuery> {
  constructor(
    private readonly copies: CustomerCopies,
    @Inject(RATE_LIMITER) private readonly limiter: RateLimiter,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(CONFIG) private readonly config: Pick<Config, 'accessRequestsPerAccountPerHour'>,
  ) {}

  async execute({ accountId, customerId, cursor, limit, cursors }: GetCustomerCopyQuery): Promise<SignedCustomerCopy> {
    await takeCopyAllowance(this.limiter, this.config, this.clock, accountId);
    return this.copies.make(accountId, customerId, { cursor, limit, cursors });
  }
}
