import type { ContextManifest } from '../../platform/src/index.js';
import { monitoringAsOf } from './as-of.js';
import { recordErasure } from './commands/delete-consent-data/delete-consent-data.handler.js';
import { grantConsent } from './commands/grant-consent/grant-consent.handler.js';
import { registerConsentNotice } from './commands/register-consent-notice/register-consent-notice.handler.js';
import { recordPings } from './commands/record-pings/record-pings.handler.js';
import { sealConsentRecord } from './commands/seal-consent-record/seal-consent-record.handler.js';
import { registerZone } from './commands/register-zone/register-zone.handler.js';
import { revokeConsent, stopCollection } from './commands/revoke-consent/revoke-consent.handler.js';
import { monitoringEventTypes } from './event-types.js';
import { createGeofence } from './geofences/commands/create-geofence/create-geofence.handler.js';
import { deleteGeofence } from './geofences/commands/delete-geofence/delete-geofence.handler.js';
import { MonitoringNotifications } from './monitoring-notifications.js';
import { GetGeofenceQuery } from './geofences/queries/get-geofence/get-geofence.handler.js';
import { ListGeofencesQuery } from './geofences/queries/list-geofences/list-geofences.handler.js';
import { ServiceAreaQuery } from './geofences/queries/service-area/service-area.handler.js';
import { GetConsentStatusQuery } from './queries/get-consent-status/get-consent-status.handler.js';
import { GetConsentNoticeQuery } from './queries/get-consent-notice/get-consent-notice.handler.js';
import { ListConsentNoticesQuery } from './queries/list-consent-notices/list-consent-notices.handler.js';
import { GetDriftQuery } from './drift/drift.query.js';
import { ListConsentsQuery } from './queries/list-consents/list-consents.handler.js';

/** What the monitoring context brings to a process (checked at start-up). */
export const monitoringManifest: ContextManifest = {
  name: 'monitoring',
  events: monitoringEventTypes,
  commands: [grantConsent, registerConsentNotice, revokeConsent, stopCollection, recordErasure, sealConsentRecord, recordPings, registerZone, createGeofence, deleteGeofence],
  queries: [GetConsentStatusQuery, ListConsentsQuery, ListConsentNoticesQuery, GetConsentNoticeQuery, GetDriftQuery, GetGeofenceQuery, ListGeofencesQuery, ServiceAreaQuery],
  readModels: { projections: ['drift_state', 'geofences', 'consents'], views: ['geofence_index'] },
  notifications: [{ token: MonitoringNotifications, notifies: MonitoringNotifications.notifies, from: MonitoringNotifications.from }],
  asOf: monitoringAsOf,
};
