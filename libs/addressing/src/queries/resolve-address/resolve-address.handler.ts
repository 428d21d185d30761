import { Inject } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { AddressNotFoundError, type Resolution } from '../../domain/resolve-address.js';
import { AddressResolver } from '../../public/address-resolver.js';
import { ADDRESS_PLACES, type AddressPlaces } from './address-places.port.js';
import type { AnswerOf } from '../../../../platform/src/index.js';
import type { ResolutionSchema } from './resolve-address.answer.js';

/** What the endpoint answers: the resolution, and in `meta` what the data covers (issue 28, item 8). */
export type ResolveAnswer = AnswerOf<typeof ResolutionSchema>;

/** GET /v2/address/resolve?address=. */
export class ResolveAddressQuery extends Query<ResolveAnswer> {
  constructor(readonly address: string) {
    super();
  }
}

/**
 * The resolve endpoint's handler: the published AddressResolver, which
 * identity's claimed addresses share (docs/adr/0016), plus the coverage: a
 * text naming a well-known place outside it ("Lagos") says so beside the
 * same-name Ghanaian place it resolved to.
 */
@QueryHandler(ResolveAddressQuery)
export class ResolveAddressHandler implements IQueryHandler<ResolveAddressQuery> {
  constructor(
    private readonly resolver: AddressResolver,
    @Inject(ADDRESS_PLACES) private readonly places: AddressPlaces,
  ) {}

  async execute(query: ResolveAddressQuery): Promise<ResolveAnswer> {
    let resolution: Resolution;
    try {
      resolution = await this.resolver.resolve(query.address);
    } catch (error) {
      // Text naming a well-known place elsewhere that matches nothing here: say why (issue 28, item 8).
      const elsewhere = error instanceof AddressNotFoundError ? this.places.outsideCoverage(query.address) : null;
      if (elsewhere && error instanceof AddressNotFoundError) throw new AddressNotFoundError(error.details.datasets, elsewhere);
      throw error;
    }
    const outside = resolution.meta.input_kind === 'text' ? this.places.outsideCoverage(query.address) : null;
    return { ...resolution, meta: { ...resolution.meta, coverage: this.places.coverage, outside_coverage: outside } };
  }
}
