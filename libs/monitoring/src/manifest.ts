import type { ContextManifest } from '../../platform/src/index.js';
import { monitoringEventTypes } from './event-types.js';
import { MonitoringNotifications } from './monitoring-notifications.js';

/** What the monitoring context brings to a process (checked at start-up). */
export const monitoringManifest: ContextManifest = {
  name: 'monitoring',
  events: monitoringEventTypes,
  commands: [],
  readModels: { projections: ['drift_state', 'geofences'], views: ['geofence_index'] },
  notifications: [{ token: MonitoringNotifications, notifies: MonitoringNotifications.notifies, from: MonitoringNotifications.from }],
};
