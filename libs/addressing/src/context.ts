import type { DynamicModule, Type } from '@nestjs/common';
import type { ContextDefinition } from '../../platform/src/index.js';
import type { AddressPlaces } from './queries/resolve-address/address-places.port.js';
import type { ReversePlaces, ReverseRoads } from './naming/reverse-names.port.js';
import { AddressingModule } from './addressing.module.js';
import { addressingManifest } from './manifest.js';

/**
 * Hex codes, reverse geocoding and address resolution.
 * The composition root binds the reference places it resolves over (places
 * depends on addressing: docs/adr/0014).
 */
export function addressingContext<T extends AddressPlaces & ReversePlaces, R extends ReverseRoads>(
  places: { module: Type<unknown> | DynamicModule; provider: abstract new (...args: never[]) => T },
  roads?: { module: Type<unknown> | DynamicModule; provider: abstract new (...args: never[]) => R },
): ContextDefinition {
  return {
    manifest: addressingManifest,
    http: AddressingModule.withPlaces(places, roads),
  };
}
