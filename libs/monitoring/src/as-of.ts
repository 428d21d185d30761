import { firstTime, safeSummary, streamContributor, type AsOfContributor } from '../../platform/src/index.js';
import { consentDecider, type ConsentEvent, type ConsentState } from './domain/consent.js';
import { geofenceDecider, type GeofenceEvent, type GeofenceState } from './geofences/domain/geofence.js';

/** The monitoring context's part of an account as of an instant (docs/adr/0023): consents and geofences (never a position). */
export const monitoringAsOf: readonly AsOfContributor[] = [
  streamContributor<ConsentState, ConsentEvent>({
    name: 'consents',
    prefixes: (accountId) => [`consent-${accountId}:`],
    decider: consentDecider,
    timeField: (event) => firstTime(event, ['revoked_at', 'granted_at', 'erased_at']),
    view: (states) =>
      Object.fromEntries(
        [...states.entries()]
          .filter(([, state]) => state.status !== 'none')
          .map(([stream, state]) => {
            const consent = state as Exclude<ConsentState, { status: 'none' }>;
            const customerId = stream.slice(stream.indexOf(':') + 1);
            return [
              customerId,
              {
                purpose: consent.purpose,
                state: consent.status,
                scope: [...consent.scope],
                granted_at: consent.granted_at,
                revoked_at: consent.status === 'revoked' ? consent.revoked_at : null,
                erased_at: consent.status === 'revoked' ? (consent.erased?.at ?? null) : null,
              },
            ];
          })
          .sort(([a], [b]) => String(a).localeCompare(String(b))),
      ),
  }),
  streamContributor<GeofenceState, GeofenceEvent>({
    name: 'geofences',
    prefixes: (accountId) => [`geofence-${accountId}:`],
    decider: geofenceDecider,
    timeField: (event) => firstTime(event, ['created_at', 'deleted_at']),
    // Fence geometry is long and says nothing about access; the fence's state keeps it.
    summary: (event) => {
      const summary = safeSummary(event.data);
      delete summary.polygon;
      return summary;
    },
    view: (states) =>
      Object.fromEntries(
        [...states.values()]
          .filter((state) => state.status !== 'none')
          .map((state) => {
            const { fence } = state as Exclude<GeofenceState, { status: 'none' }>;
            return [
              fence.fence_id,
              {
                state: state.status,
                name: fence.name,
                fence_type: fence.fence_type,
                customer_id: fence.customer_id,
                loan_id: fence.loan_id,
                center: fence.center,
                radius_m: fence.radius_m,
                polygon: fence.polygon,
                created_at: fence.created_at,
                deleted_at: state.status === 'deleted' ? state.deleted_at : null,
              },
            ];
          })
          .sort(([a], [b]) => String(a).localeCompare(String(b))),
      ),
  }),
];
