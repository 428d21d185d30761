import { Module, type DynamicModule, type Type } from '@nestjs/common';
import { BulkHexcodeController } from './queries/bulk-hexcode/bulk-hexcode.controller.js';
import { BulkHexcodeHandler } from './queries/bulk-hexcode/bulk-hexcode.handler.js';
import { BulkHexcodePool } from './queries/bulk-hexcode/bulk-hexcode.pool.js';
import { LookupController } from './queries/lookup/lookup.controller.js';
import { LookupHandler } from './queries/lookup/lookup.handler.js';
import { ParseAddressController } from './queries/parse-address/parse-address.controller.js';
import { ParseAddressHandler } from './queries/parse-address/parse-address.handler.js';
import { CLOCK, type Clock } from '../../platform/src/index.js';
import { ADDRESS_PLACES, type AddressPlaces } from './queries/resolve-address/address-places.port.js';
import { AddressResolver } from './public/address-resolver.js';
import { ReverseNamer } from './naming/reverse-namer.js';
import { REVERSE_PLACES, REVERSE_ROADS, type ReversePlaces, type ReverseRoads } from './naming/reverse-names.port.js';
import { ResolveAddressHandler } from './queries/resolve-address/resolve-address.handler.js';
import { ResolveAddressController } from './queries/resolve-address/resolve-address.controller.js';
import { ReverseController } from './queries/reverse/reverse.controller.js';
import { ReverseHandler } from './queries/reverse/reverse.handler.js';

/** The computed hex-code queries' handlers (QueryBus dispatches to them). */
const codecHandlers = [LookupHandler, ReverseHandler, ParseAddressHandler, BulkHexcodeHandler, ReverseNamer, BulkHexcodePool];

/**
 * Hex codes (interface.md, "Addresses, hex codes and search"; ADR 0009): lookup,
 * reverse, parse and bulk, all computed, are the static module (what the codec
 * benchmark mounts). The service imports `AddressingModule.withPlaces(…)`,
 * which adds resolve (ADR 0014): it also reads the reference places.
 */
@Module({
  controllers: [LookupController, ReverseController, ParseAddressController, BulkHexcodeController],
  providers: codecHandlers,
})
export class AddressingModule {
  /**
   * Binds the resolve endpoint's reference places to `provider` (the places
   * context's Gazetteer), exported by `module`. The type parameter checks at
   * compile time that the provider has the port's shape.
   */
  static withPlaces<T extends AddressPlaces & ReversePlaces, R extends ReverseRoads>(
    places: { module: Type<unknown> | DynamicModule; provider: abstract new (...args: never[]) => T },
    roads?: { module: Type<unknown> | DynamicModule; provider: abstract new (...args: never[]) => R },
  ): DynamicModule {
    return {
      module: AddressingModule,
      imports: [places.module, ...(roads ? [roads.module] : [])],
      controllers: [ResolveAddressController],
      providers: [
        { provide: ADDRESS_PLACES, useExisting: places.provider },
        // GET /v2/reverse's `address` (issue 28, item 7): the same places, and the road network where one is bound.
        { provide: REVERSE_PLACES, useExisting: places.provider },
        ...(roads ? [{ provide: REVERSE_ROADS, useExisting: roads.provider }] : []),
        { provide: AddressResolver, inject: [ADDRESS_PLACES, CLOCK], useFactory: (found: AddressPlaces, clock: Clock) => new AddressResolver(found, clock) },
        ResolveAddressHandler,
      ],
    };
  }
}
