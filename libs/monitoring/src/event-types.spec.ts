import { EventRegistry } from '../../platform/src/index.js';
import { readStoredEvents, upcastStoredEvents, type StoredEvent } from '../../../test/support/stored-events.js';
import { CONSENT_EVENT_TYPES, evolveConsent, initialConsentState, type ConsentEvent } from './domain/consent.js';
import { evolveLocation, initialLocationState, LOCATION_EVENT_TYPES, type LocationEvent } from './domain/location.js';
import { monitoringEventTypes } from './event-types.js';
import { LocationSealing } from './location-stream/location-sealing.js';
import { consentReceiptClaims } from './domain/consent-receipt.js';
import { evolveNoticeRegistry, initialNoticeRegistryState, noticeDigest, noticeTextsOf, resolveNotice, type ConsentNoticeEvent } from './domain/consent-notice.js';
import { consentStatusView } from './consent-record/consent-status.view.js';
import { consentIdOf } from './receipts/consent-receipts.js';

/** Stored JSON from schema version 1 must still fold into today's state (style.md: upcasters against fixtures). */
const fixture = (name: string) => readStoredEvents(new URL(`./__fixtures__/${name}`, import.meta.url));
const consentEvents = fixture('consent-events.v1.json');
const erasure = fixture('customer-data-erased.v1.json');
const recordSealed = fixture('consent-record-sealed.v1.json');
const locationEvents = fixture('location-events.v1.json');
const noticeEvents = fixture('consent-notice-registered.v1.json');
const geofenceEvents = readStoredEvents(new URL('./geofences/__fixtures__/geofence-events.v1.json', import.meta.url));

describe('monitoring event types', () => {
  const registry = new EventRegistry().register(...monitoringEventTypes);

  it('registers every consent and location event type with a version', () => {
    for (const type of [...CONSENT_EVENT_TYPES, ...LOCATION_EVENT_TYPES]) expect(registry.version(type)).toBe(1);
  });

  it('has a stored-JSON fixture for every event type it registers', () => {
    const fixtured = new Set([...consentEvents, ...erasure, ...recordSealed, ...locationEvents, ...geofenceEvents, ...noticeEvents].map((event) => event.type));
    expect(monitoringEventTypes.map((definition) => definition.type).filter((type) => !fixtured.has(type))).toEqual([]);
  });

  it('reads version-1 stored consent events into a revoked consent', () => {
    const events = upcastStoredEvents<ConsentEvent>(registry, consentEvents, 'consent-acct_fixture:cust-1');
    expect(events.reduce(evolveConsent, initialConsentState)).toEqual({
      status: 'revoked',
      purpose: 'unspecified',
      scope: ['location'],
      granted_at: '2026-11-22T00:00:00.000Z',
      revoked_at: '2026-11-22T01:00:00.000Z',
    });
  });

  it('replays a version-1 grant, from before notices were captured, as unspecified, with a stable derived consent id and a receipt that says so (docs/adr/0032)', () => {
    const events = upcastStoredEvents<ConsentEvent>(registry, consentEvents, 'consent-acct_fixture:cust-1');
    const state = events.reduce(evolveConsent, initialConsentState);
    if (state.status === 'none') throw new Error('granted and revoked');
    const view = consentStatusView('cust-1', state, 'acct_fixture');
    expect(view).toMatchObject({ notice: { version: 'unspecified', sha256: null, language: 'unspecified' }, channel: 'unspecified', captured_at: null, proof: null });
    expect(view.consent_id).toMatch(/^cr_legacy_[0-9a-f]{32}$/);
    expect(consentStatusView('cust-1', events.slice(0, 1).reduce(evolveConsent, initialConsentState), 'acct_fixture').consent_id).toBe(view.consent_id);
    const claims = consentReceiptClaims({ issuer: 'https://x.test', accountId: 'acct_fixture', customerId: 'cust-1', consentId: consentIdOf('acct_fixture', 'cust-1', state), state, event: 'revoked' });
    expect(claims).toMatchObject({ collectionMethod: 'unspecified', language: 'unspecified', consentTimestamp: Date.parse('2026-11-22T00:00:00.000Z') / 1000, iat: Date.parse('2026-11-22T01:00:00.000Z') / 1000, capture: { captured_at: null, proof: null } });
  });

  it('reads a legacy grant, its backfilled ConsentRecordSealed and a revoke with a pseudonym into a revoked consent whose record is sealed (docs/adr/0032)', () => {
    const events = upcastStoredEvents<ConsentEvent>(registry, recordSealed, 'consent-acct_fixture:cust-3');
    expect(events.slice(0, 1).reduce(evolveConsent, initialConsentState)).not.toHaveProperty('record_sealed');
    const state = events.reduce(evolveConsent, initialConsentState);
    expect(state).toEqual({ status: 'revoked', purpose: 'fleet_dispatch', scope: ['location'], granted_at: '2026-11-22T00:00:00.000Z', revoked_at: '2026-11-27T07:00:00.000Z', record_sealed: true });
  });

  it('reads a version-1 notice registry into its hashes, and its texts back as registered (docs/adr/0059)', () => {
    const events = upcastStoredEvents<ConsentNoticeEvent>(registry, noticeEvents, 'consent_notices-acct_fixture');
    const state = events.reduce(evolveNoticeRegistry, initialNoticeRegistryState);
    expect(state.notices.map(({ version, language, bytes }) => [version, language, bytes])).toEqual([
      ['2026-11-v3', 'en-GH', 130],
      ['2026-11-v3', 'tw', 86],
    ]);
    const texts = noticeTextsOf('2026-11-v3');
    for (const notice of events.reduce(texts.evolve, texts.initialState)) expect(noticeDigest(notice.text, 'text')).toEqual({ sha256: notice.sha256, bytes: notice.bytes });
    expect(resolveNotice({ version: '2026-11-v3', language: 'TW' }, state)).toEqual({ version: '2026-11-v3', language: 'tw', sha256: state.notices[1].sha256 });
  });

  it('reads a version-1 erasure record, from before it carried a pseudonym, into an erased consent', () => {
    const events = upcastStoredEvents<ConsentEvent>(registry, erasure, 'consent-acct_fixture:cust-2');
    expect(events.reduce(evolveConsent, initialConsentState)).toMatchObject({ status: 'revoked', erased: { at: '2026-11-22T02:00:00.000Z', events_erased: 14 } });
  });

  it('reads version-1 sealed location events, opened with their key and then upcast, into a location state', () => {
    const stream = 'location-acct_fixture:cust-1';
    const key = { id: 'fixture-key-1', key: Buffer.alloc(32, 0x11) };
    const sealing = new LocationSealing({} as never);
    // The read order of the location codec: open (with the key) first, then upcast, then evolve.
    const opened: StoredEvent[] = locationEvents.map((stored) => {
      const event = sealing.openWith(key, { type: stored.type, data: stored.data, streamName: stream });
      if (!event) throw new Error(`fixture ${stored.type} does not open with the fixture key`);
      return { ...stored, data: event.data as unknown as Record<string, unknown> };
    });
    const events = upcastStoredEvents<LocationEvent>(registry, opened, stream);
    expect(events.map((event) => event.type)).toEqual(locationEvents.map((event) => event.type));
    expect(events[1]).toEqual({
      type: 'PingRecorded',
      data: {
        account_id: 'acct_fixture',
        customer_id: 'cust-1',
        ping_id: 'fixture-ping-1',
        recorded_at: '2026-11-22T00:10:00.000Z',
        lat: 5.6037,
        lng: -0.187,
        accuracy_m: 12,
        device_id: 'phone-7',
        received_at: '2026-11-22T00:10:05.000Z',
      },
    });
    expect(events.reduce(evolveLocation, initialLocationState)).toEqual({
      zone: { home_cell: '89757694263ffff', tolerance_hops: 1, registered_at: '2026-11-22T00:00:00.000Z' },
      drifting: null,
      latest: { lat: 5.55, lng: -0.2, recorded_at: '2026-11-22T00:20:00.000Z' },
      inside_fences: [],
      seen_ping_ids: ['fixture-ping-1', 'fixture-ping-2'],
    });
    // Midway, after DriftStarted and GeofenceEntered:
    expect(events.slice(0, 4).reduce(evolveLocation, initialLocationState)).toMatchObject({
      drifting: { since: '2026-11-22T00:10:00.000Z', current_cell: '897576970b3ffff', distance_hops: 4 },
      inside_fences: ['gf_0123456789abcdef0123456789abcdef'],
    });
  });
});
