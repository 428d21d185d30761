import type { ContextDefinition } from '../../platform/src/index.js';
import { locatorManifest } from './manifest.js';
import { LocatorModule } from './locator.module.js';

/** Share codes and check-ins between people. What the locator context brings to the apps (apps/shared/contexts.ts). */
export const locatorContext: ContextDefinition = {
  manifest: locatorManifest,
  http: LocatorModule,
};
