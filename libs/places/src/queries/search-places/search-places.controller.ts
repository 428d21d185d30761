import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { SearchPlacesQuery } from './search-places.handler.js';
import { SearchPlacesRequest } from './search-places.request.js';
import { ApiAnswer, type AnswerOf } from '../../../../platform/src/index.js';
import { PlaceSearchAnswerSchema } from './search-places.answer.js';

/** interface.md, "Addresses, hex codes and search": results plus did_you_mean when the query nearly matches a known place. */
@ApiTags('places')
@ApiSecurity('api_key')
@Controller('v2/search')
export class SearchPlacesController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @ApiOperation({
    summary: 'Search places by name',
    description:
      'Ranks places (GeoNames and OpenStreetMap imports) by how well the query matches a name or alternate name, ' +
      'the place’s importance (population, class, admin level) and, with `near`, its distance. The last word matches as a prefix (type-ahead); ' +
      'words may also match the region or district ("madina accra"). `did_you_mean` suggests a spelling when the query nearly matches a better-known place; ' +
      'the places it finds follow the query’s own, marked `match: "fuzzy"`. Results carry the attribution their sources require. ' +
      '`coverage.countries` lists the countries the data covers (Ghana, `GH`); a query naming a well-known place outside them ("Lagos", "Abidjan, Côte d\'Ivoire", "Lomé") ' +
      'sets `outside_coverage` `{name, country, country_name, note}`: the results are then Ghanaian places of the same or a similar name, not it.',
  })
  @ApiAnswer(PlaceSearchAnswerSchema)
  @ApiResponse({ status: 400, description: 'INVALID_PARAM naming the field (`q`, `near`, `lat`, `lng`, `limit`, `cursor`)' })
  @ApiResponse({ status: 503, description: 'DATASET_NOT_LOADED: no place dataset has been imported yet' })
  search(@Query() request: SearchPlacesRequest): Promise<AnswerOf<typeof PlaceSearchAnswerSchema>> {
    return this.queries.execute(new SearchPlacesQuery({ q: request.q, near: request.near, lat: request.lat, lng: request.lng, limit: request.limit, cursor: request.cursor }));
  }
}
