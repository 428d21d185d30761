import type { ContextDefinition } from '../../platform/src/index.js';
import { monitoringManifest } from './manifest.js';
import { MonitoringModule } from './monitoring.module.js';
import { MonitoringNotificationsModule } from './monitoring-notifications.module.js';

/** Consent, pings, zones, drift and geofences; the worker gets its webhook notification source only. */
export const monitoringContext: ContextDefinition = {
  manifest: monitoringManifest,
  http: MonitoringModule,
  worker: MonitoringNotificationsModule,
};
