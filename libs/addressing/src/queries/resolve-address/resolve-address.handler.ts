import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { Resolution } from '../../domain/resolve-address.js';
import { AddressResolver } from '../../public/address-resolver.js';

/** GET /v2/address/resolve?address=. */
export class ResolveAddressQuery extends Query<Resolution> {
  constructor(readonly address: string) {
    super();
  }
}

/** The resolve endpoint's handler: the published AddressResolver, which identity's claimed addresses share (docs/adr/0016). */
@QueryHandler(ResolveAddressQuery)
export class ResolveAddressHandler implements IQueryHandler<ResolveAddressQuery> {
  constructor(private readonly resolver: AddressResolver) {}

  async execute(query: ResolveAddressQuery): Promise<Resolution> {
    return this.resolver.resolve(query.address);
  }
}
