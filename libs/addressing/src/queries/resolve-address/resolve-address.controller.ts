import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { QueryBus } from '@nestjs/cqrs';
import { MIN_STRUCTURE_RESOLUTION } from '../../domain/resolve-address.js';
import { ResolveAddressQuery } from './resolve-address.handler.js';
import { ResolveAddressRequest } from './resolve-address.request.js';
import { ApiAnswer, type AnswerOf } from '../../../../platform/src/index.js';
import { ResolutionSchema } from './resolve-address.answer.js';

/** interface.md, "Addresses, hex codes and search" and Resources, "Address resolve"; docs/adr/0014. */
@ApiTags('addressing')
@ApiSecurity('api_key')
@Controller('v2/address')
export class ResolveAddressController {
  constructor(private readonly queries: QueryBus) {}

  @Get('resolve')
  @ApiOperation({
    summary: 'Resolve an address — a hex code or a place name — to a point, with what stands there',
    description:
      'A hex code (any shape, also inside other text) resolves to the centre of its cell (`provenance.source: geocoded_text`, as GET /v2/lookup). ' +
      `From resolution ${MIN_STRUCTURE_RESOLUTION} (cells of about 2,150 m² and finer), the named structures of the reference data (OSM amenities, shops, buildings…; GeoNames spots) ` +
      'whose point lies in the cell or one of its six neighbours come back as `points[]`, in the cell first and then nearest; ' +
      'then `precision` is `structure` and `label`/`last_seen_at` are those of the first point; otherwise `precision` is `cell` and both are null. ' +
      'Each point carries its own provenance (`third_party_match`: a record of a third-party dataset, matched to the code by position). ' +
      'Free text resolves to the best place of GET /v2/search: `precision` is `structure` for a structure, `place` for a settlement or area; near-equal matches are listed in `meta.alternatives` and lower the confidence. ' +
      'A word made of letters only ("MADINA") may also be a valid code: a place match wins, else the code. ' +
      '`meta.coverage.countries` lists the countries the data covers (Ghana, `GH`); text naming a well-known place outside them ("Lagos") sets `meta.outside_coverage`: the place resolved is a Ghanaian one of that name, not it. ' +
      '`last_seen_at` is when this service last saw the record in its source: the import time of the dataset version holding it (`meta.last_seen_basis: dataset_import`); the sources’ own edit times are not kept.',
  })
  @ApiAnswer(ResolutionSchema)
  @ApiResponse({
    status: 400,
    description:
      'INVALID_PARAM (field `address`: missing, empty, longer than 200 characters, or without a letter or digit); ' +
      'INVALID_CODE (field `address`) for code-shaped text whose check character fails, with `error.details` `{reason, suggestions}`',
  })
  @ApiResponse({ status: 404, description: 'ADDRESS_NOT_FOUND: text that matches no place, not even nearly; `details.outside_coverage` `{name, country, country_name, note}` when it names a well-known place outside the data’s coverage (Lagos, Abidjan)' })
  @ApiResponse({ status: 422, description: 'ADDRESS_NOT_CONVERTIBLE: a GhanaPostGPS digital address (its grid is proprietary: the point needs GhanaPost’s own service); `error.details` `{kind, code, prefix, region: {letter, name, current_regions} | null, district: null, point_available: false, note}`: the region decoded from the prefix, nothing guessed' })
  @ApiResponse({ status: 503, description: 'DATASET_NOT_LOADED: free text before any place dataset is imported (a hex code still resolves, without structures)' })
  resolve(@Query() request: ResolveAddressRequest): Promise<AnswerOf<typeof ResolutionSchema>> {
    return this.queries.execute(new ResolveAddressQuery(request.address));
  }
}
