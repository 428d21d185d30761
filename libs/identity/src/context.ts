import type { DynamicModule, Type } from '@nestjs/common';
import type { AddressPlaces } from '../../addressing/src/index.js';
import { identityCli } from './cli.js';
import type { ContextDefinition } from '../../platform/src/index.js';
import { IdentityModule } from './identity.module.js';
import { identityManifest } from './manifest.js';

/**
 * Proximity and KYC verification, delivery receipts, signing keys. The
 * composition root binds the reference places claimed addresses resolve over
 * (docs/adr/0016). The worker gets the same module: banking's scheduled
 * re-verifications run identity's KYC verification there, through the
 * pipeline, which resolves the verification's dependencies from it (and its
 * webhook notification source comes with it).
 */
export function identityContext<T extends AddressPlaces>(places: { module: Type<unknown> | DynamicModule; provider: abstract new (...args: never[]) => T }): ContextDefinition {
  const module = IdentityModule.withPlaces(places);
  return { manifest: identityManifest, http: module, worker: module, cli: identityCli };
}
