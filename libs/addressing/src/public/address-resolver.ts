import { cellToLatLng } from 'h3-js';
import type { Clock } from '../../../platform/src/index.js';
import {
  classifyAddress,
  resolveCode,
  resolveText,
  structureRadius,
  structuresWanted,
  TEXT_CANDIDATES,
  type AddressInput,
  type Resolution,
} from '../domain/resolve-address.js';
import type { AddressPlaces } from '../queries/resolve-address/address-places.port.js';

/** Reference places read around a code's centre; the structure radius holds far fewer in the densest city block. */
const NEAR_CANDIDATES = 500;

/**
 * What GET /v2/address/resolve answers, as a use case other contexts can
 * call too (the identity context resolves a claimed address with it):
 * docs/adr/0014. Throws what the endpoint answers: INVALID_PARAM,
 * INVALID_CODE, ADDRESS_NOT_CONVERTIBLE, ADDRESS_NOT_FOUND, and 503
 * DATASET_NOT_LOADED for text before any place dataset is imported.
 */
export class AddressResolver {
  constructor(
    private readonly places: AddressPlaces,
    private readonly clock: Clock,
  ) {}

  resolve(address: string): Resolution {
    const input = classifyAddress(address);
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
