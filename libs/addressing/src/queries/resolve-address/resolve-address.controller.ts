import { Controller, Get, Inject, Query } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { cellToLatLng } from 'h3-js';
import {
  classifyAddress,
  MIN_STRUCTURE_RESOLUTION,
  resolveCode,
  resolveText,
  structureRadius,
  structuresWanted,
  TEXT_CANDIDATES,
  type AddressInput,
  type Resolution,
} from '../../domain/resolve-address.js';
import { CLOCK, type Clock } from '../../../../platform/src/index.js';
import { ADDRESS_PLACES, type AddressPlaces } from './address-places.port.js';
import { ResolveAddressRequest } from './resolve-address.request.js';

/** Reference places read around a code's centre; the structure radius holds far fewer in the densest city block. */
const NEAR_CANDIDATES = 500;

/** interface.md, "Addresses, hex codes and search" and Resources, "Address resolve"; docs/adr/0014. */
@ApiTags('addressing')
@ApiSecurity('api_key')
@Controller('v2/address')
export class ResolveAddressController {
  constructor(
    @Inject(ADDRESS_PLACES) private readonly places: AddressPlaces,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

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
      '`last_seen_at` is when this service last saw the record in its source: the import time of the dataset version holding it (`meta.last_seen_basis: dataset_import`); the sources’ own edit times are not kept.',
  })
  @ApiResponse({
    status: 200,
    description:
      '`{lat, lng, code, display, resolution, cell, precision (structure | cell | place), label, last_seen_at, provenance, ' +
      'points: [{label, kind, lat, lng, code, display, distance_m, in_cell, place_id, region, district, last_seen_at, provenance}], ' +
      'meta: {input_kind (hex_code | text), matched_by (code | code_in_text | place_search), matched_text, other_codes, text_match, did_you_mean, candidates_considered, ' +
      'structure_search {radius_m, min_resolution} | null, structure_search_skipped (resolution_too_coarse | dataset_not_loaded | null), ambiguous, alternatives, datasets, last_seen_basis, attribution}}`',
  })
  @ApiResponse({
    status: 400,
    description:
      'INVALID_PARAM (field `address`: missing, empty, longer than 200 characters, or without a letter or digit); ' +
      'INVALID_CODE (field `address`) for code-shaped text whose check character fails, with `error.details` `{reason, suggestions}`',
  })
  @ApiResponse({ status: 404, description: 'ADDRESS_NOT_FOUND: text that matches no place, not even nearly' })
  @ApiResponse({ status: 422, description: 'ADDRESS_NOT_CONVERTIBLE: a GhanaPostGPS digital address (its grid is proprietary); `error.details` `{kind, code}`' })
  @ApiResponse({ status: 503, description: 'DATASET_NOT_LOADED: free text before any place dataset is imported (a hex code still resolves, without structures)' })
  resolve(@Query() request: ResolveAddressRequest): Resolution {
    const input = classifyAddress(request.address);
    switch (input.kind) {
      case 'hex_code':
        return this.byCode(input);
      case 'text_or_code':
        return this.byTextOrCode(input);
      case 'text':
        return this.byText(input.text);
    }
  }

  private byCode(input: Extract<AddressInput, { kind: 'hex_code' | 'text_or_code' }>): Resolution {
    const datasets = this.places.datasets;
    if (!structuresWanted(input.parsed) || datasets.length === 0) return resolveCode(input, null, datasets, this.clock.now());
    const [lat, lng] = cellToLatLng(input.parsed.cell);
    return resolveCode(input, this.places.near(lat, lng, structureRadius(input.parsed.cell), NEAR_CANDIDATES), datasets, this.clock.now());
  }

  /** A place the search matches on its own spelling wins; a code otherwise (a did-you-mean guess does not beat a valid code). */
  private byTextOrCode(input: Extract<AddressInput, { kind: 'text_or_code' }>): Resolution {
    if (this.places.datasets.length === 0) return this.byCode(input);
    const found = this.search(input.text);
    if (!found.hits.some((hit) => hit.match !== 'fuzzy')) return this.byCode(input);
    return resolveText(input.text, found.hits, found.did_you_mean, this.places.datasets, this.clock.now());
  }

  private byText(text: string): Resolution {
    const found = this.search(text);
    return resolveText(text, found.hits, found.did_you_mean, this.places.datasets, this.clock.now());
  }

  private search(text: string) {
    const result = this.places.search({ text, limit: TEXT_CANDIDATES, offset: 0 });
    return { hits: result.hits.map((hit) => ({ ...hit, dataset: this.places.datasetOf(hit.place.id) })), did_you_mean: result.did_you_mean };
  }
}
