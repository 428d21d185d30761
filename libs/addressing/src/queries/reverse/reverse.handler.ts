import { Inject } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { CLOCK, InvalidParamError, type Clock, type AnswerOf } from '../../../../platform/src/index.js';
import { greatCircleM } from '../../../../platform/src/geo/geodesy.js';
import { codedCellForPoint, DEFAULT_ADDRESS_RESOLUTION, displayHexCode } from '../../domain/hexcode.js';
import { ReverseNamer } from '../../naming/reverse-namer.js';
import { callerPointProvenance, CONFIRMED_SOURCES, type ProvenanceSource } from '../../domain/provenance.js';
import type { ReverseAnswerSchema } from './reverse.answer.js';

export type ReverseAnswer = AnswerOf<typeof ReverseAnswerSchema>;

/** GET /v2/reverse?lat&lng[&resolution&source&accuracy_m]. */
export class ReverseQuery extends Query<ReverseAnswer> {
  constructor(
    readonly lat: number,
    readonly lng: number,
    readonly resolution?: number,
    readonly source?: ProvenanceSource,
    readonly accuracyM?: number,
    readonly confirmedBy?: string,
  ) {
    super();
  }
}

/** The code of the cell holding a point, computed (decisions.md: `data.code` with `data.provenance`); the hottest path with lookup (ADR 28). */
@QueryHandler(ReverseQuery)
export class ReverseHandler implements IQueryHandler<ReverseQuery> {
  constructor(
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly namer: ReverseNamer,
  ) {}

  async execute(query: ReverseQuery): Promise<ReverseAnswer> {
    const source = query.source ?? 'device_gps';
    // A person's confirmation counts only with who gave it (docs/adr/0030): a bare claim is refused.
    if (CONFIRMED_SOURCES.includes(source) && query.confirmedBy === undefined) {
      throw new InvalidParamError(`confirmed_by is required with source ${source}: the account or agent id that confirmed the point`, 'confirmed_by');
    }
    const centre = codedCellForPoint(query.lat, query.lng, query.resolution ?? DEFAULT_ADDRESS_RESOLUTION);
    const point: [number, number] = [centre.lat, centre.lng];
    return {
      code: centre.code,
      display: displayHexCode(centre.code),
      resolution: centre.resolution,
      cell: centre.cell,
      lat: centre.lat,
      lng: centre.lng,
      distance_m: Math.round(greatCircleM(query.lat, query.lng, centre.lat, centre.lng) * 10) / 10,
      provenance: callerPointProvenance(source, query.accuracyM, centre.cell, this.clock.now(), point, query.confirmedBy),
      // The point sent is named, not the cell centre: the centre of a coarse cell may lie in another district.
      address: this.namer.name(query.lat, query.lng),
    };
  }
}
