import { Module, type DynamicModule, type Type } from '@nestjs/common';
import { CLOCK, type Clock } from '../../platform/src/index.js';
import { ADDRESS_RESOLVER } from './address-resolver.port.js';
import { AddressResolver } from './public/address-resolver.js';
import type { AddressPlaces } from './queries/resolve-address/address-places.port.js';

/**
 * The address resolver for another context (identity), over the reference places the composition root binds:
 * it provides and exports ADDRESS_RESOLVER, so the importer names the port, never the resolver.
 */
@Module({})
export class AddressResolverModule {
  static over<T extends AddressPlaces>(places: { module: Type<unknown> | DynamicModule; provider: abstract new (...args: never[]) => T }): DynamicModule {
    return {
      module: AddressResolverModule,
      imports: [places.module],
      providers: [{ provide: ADDRESS_RESOLVER, inject: [places.provider, CLOCK], useFactory: (found: AddressPlaces, clock: Clock) => new AddressResolver(found, clock) }],
      exports: [ADDRESS_RESOLVER],
    };
  }
}
