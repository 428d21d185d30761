import { Inject } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { CUSTOMER_LOCATIONS, type CustomerLocations } from '../../../../monitoring/src/index.js';
import { CLOCK, CONFIG, DATA_KEY_VAULT, EVENT_STORE, EventRegistry, RATE_LIMITER, type Clock, type Config, type DataKeyVault, type EventStore, type RateLimiter } from '../../../../platform/src/index.js';
import { CustomerDeliveries } from '../../../../webhooks/src/index.js';
import { CheckpointScheduler } from '../../checkpoints/checkpoint-scheduler.js';
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
  private readonly copies: CustomerCopies;

  constructor(
    @Inject(EVENT_STORE) events: EventStore,
    registry: EventRegistry,
    @Inject(CUSTOMER_LOCATIONS) locations: CustomerLocations,
    deliveries: CustomerDeliveries,
    signer: CheckpointScheduler,
    @Inject(RATE_LIMITER) private readonly limiter: RateLimiter,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(CONFIG) private readonly config: Pick<Config, 'accessRequestsPerAccountPerHour'>,
    // Identity opens its verifications with the customer's data key (ADR 0054).
    @Inject(DATA_KEY_VAULT) vault: DataKeyVault,
  ) {
    this.copies = new CustomerCopies(events, registry, locations, deliveries, signer, vault, clock);
  }

  async execute({ accountId, customerId, cursor, limit, cursors }: GetCustomerCopyQuery): Promise<SignedCustomerCopy> {
    await takeCopyAllowance(this.limiter, this.config, this.clock, accountId);
    return this.copies.make(accountId, customerId, { cursor, limit, cursors });
  }
}
