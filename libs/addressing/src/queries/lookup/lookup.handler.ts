import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { displayHexCode, pointForHexCode } from '../../domain/hexcode.js';
import { cellCentreProvenance } from '../../domain/provenance.js';
import type { AnswerOf } from '../../../../platform/src/index.js';
import type { LookupAnswerSchema } from './lookup.answer.js';

export type LookupAnswer = AnswerOf<typeof LookupAnswerSchema>;

/** GET /v2/lookup?address=: a hex code in any shape. */
export class LookupQuery extends Query<LookupAnswer> {
  constructor(readonly address: string) {
    super();
  }
}

/** The centre of the code's H3 cell (decisions.md); 400 INVALID_CODE (field `address`) for a code that does not parse. */
@QueryHandler(LookupQuery)
export class LookupHandler implements IQueryHandler<LookupQuery> {
  async execute(query: LookupQuery): Promise<LookupAnswer> {
    const point = pointForHexCode(query.address, 'address');
    return {
      code: point.code,
      display: displayHexCode(point.code),
      resolution: point.resolution,
      cell: point.cell,
      lat: point.lat,
      lng: point.lng,
      provenance: cellCentreProvenance(point.cell, [point.lat, point.lng]),
    };
  }
}
