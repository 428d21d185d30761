import type { ContextDefinition } from '../../platform/src/index.js';
import { trafficManifest } from './manifest.js';
import { TrafficModule } from './traffic.module.js';

/** Incident reports and arrivals, and the live traffic view. What the traffic context brings to the apps (apps/shared/contexts.ts). */
export const trafficContext: ContextDefinition = {
  manifest: trafficManifest,
  http: TrafficModule,
};
