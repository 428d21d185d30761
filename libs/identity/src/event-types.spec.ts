import { createHash } from 'node:crypto';
import { EventRegistry, type DataKey, type DataKeyVault } from '../../platform/src/index.js';
import { readStoredEvents, upcastStoredEvents } from '../../../test/support/stored-events.js';
import { deliveryConfirmedPayload } from './notifications/identity-notifications.js';
import { DELIVERY_EVENT_TYPES, evolveDelivery, initialDeliveryState, type DeliveryEvent } from './domain/delivery.js';
import { evolveSigningKeys, initialSigningKeysState, SIGNING_KEY_EVENT_TYPES, type SigningKeyEvent } from './domain/signing-keys.js';
import { evolveVerification, initialVerificationState, VERIFICATION_EVENT_TYPES, type VerificationEvent } from './domain/verification.js';
import { identityEventTypes } from './event-types.js';
import { signalUpdates, type StoredVerificationSignals } from './public/identity-signals.read-model.js';
import { IdentityFieldOpener, IdentitySealing } from './sealing/identity-sealing.js';

/** Stored JSON from schema versions 1 (clear) and 2 (sealed, ADR 0054) must still fold into today's state (style.md: upcasters against fixtures). */
const stored = readStoredEvents(new URL('./__fixtures__/identity-events.v1.json', import.meta.url));
const sealed = readStoredEvents(new URL('./__fixtures__/identity-events.v2.json', import.meta.url));
const of = (stream: string, events = stored) => events.filter((event) => event.stream === stream);

/** The keys the version-2 fixture was sealed with (its comment says how they were made). */
const fixtureKey: DataKey = { id: 'kFixtureCust1KeyId00', key: createHash('sha256').update('identity fixture: acct_fixture:cust-1').digest() };
const refKey: DataKey = { id: 'kFixtureSignalRefs00', key: createHash('sha256').update('identity fixture: #identity/signal-refs').digest() };
/** Answers the fixture's key for its subject and id only, as a vault does; `erased` stands for a destroyed key. */
function fixtureVault(erased = false): DataKeyVault {
  return {
    obtain: () => Promise.reject(new Error('reading never creates a key')),
    find: async (subject, keyId) => (!erased && subject === 'acct_fixture:cust-1' && keyId === fixtureKey.id ? fixtureKey : undefined),
    destroy: async () => undefined,
    ping: async () => undefined,
    close: async () => undefined,
  };
}

describe('identity event types', () => {
  const registry = new EventRegistry().register(...identityEventTypes);

  it('registers every stored type with a version, and the fixture holds one of each', () => {
    const types = [...SIGNING_KEY_EVENT_TYPES, ...VERIFICATION_EVENT_TYPES, ...DELIVERY_EVENT_TYPES];
    for (const type of SIGNING_KEY_EVENT_TYPES) expect(registry.version(type)).toBe(1);
    for (const type of [...VERIFICATION_EVENT_TYPES, ...DELIVERY_EVENT_TYPES]) expect(registry.version(type)).toBe(2);
    expect(new Set(stored.map((event) => event.type))).toEqual(new Set(types));
    expect(new Set(sealed.map((event) => event.type))).toEqual(new Set([...VERIFICATION_EVENT_TYPES, ...DELIVERY_EVENT_TYPES]));
  });

  it('reads the version-1 signing keys into a rotated key set', () => {
    const events = upcastStoredEvents<SigningKeyEvent>(registry, of('signing_keys-service'));
    const state = events.reduce(evolveSigningKeys, initialSigningKeysState);
    expect(state.active_kid).toBe('Xq2Tj9Qm4pUQeZ2o6fW1nYb0cVx3LkR8sA5dE7gH9iJ');
    expect(state.keys.map(({ kid, retired_at }) => ({ kid, retired_at }))).toEqual([
      { kid: '2vcrqg6bQCFPmI1K1gKXLKj750XVONVw39jEm1fsi7M', retired_at: '2026-12-01T09:00:00.000Z' },
      { kid: 'Xq2Tj9Qm4pUQeZ2o6fW1nYb0cVx3LkR8sA5dE7gH9iJ', retired_at: null },
    ]);
  });

  it('reads the version-1 verifications into the customer’s verification state and the fraud signals', () => {
    const events = upcastStoredEvents<VerificationEvent>(registry, of('identity_verification-acct_fixture:cust-1'));
    expect(events.reduce(evolveVerification, initialVerificationState)).toEqual({
      verifications: 2,
      last_verified_at: '2026-11-23T11:00:00.000Z',
      recent_ids: ['vrf_0f3c2a9d7e6b4c1a8f5e2d3c4b5a6978', 'vrf_1a2b3c4d5e6f708192a3b4c5d6e7f801'],
    });
    // Stored in the clear, they give the signals links only: the read store holds no position in the clear (ADR 0054).
    expect(events.flatMap((event) => signalUpdates(event.data as unknown as StoredVerificationSignals).map((update) => update.id))).toEqual([
      'link:acct_fixture:ip:hI0000000000000000000000000000001',
      'link:acct_fixture:device:hD0000000000000000000000000000001',
      'link:acct_fixture:ip:hI0000000000000000000000000000001',
      'link:acct_fixture:phone:hP0000000000000000000000000000001',
    ]);
  });

  it('opens the version-2 verifications with the customer’s key into the version-1 data, and gives the signals sealed observations', async () => {
    const opener = new IdentityFieldOpener(fixtureVault());
    const open = async (events: typeof stored) => Promise.all(events.map(async (event) => ({ ...event, data: await opener.open({ type: event.type, data: event.data, streamName: event.stream! }) })));
    const stream = 'identity_verification-acct_fixture:cust-1';
    const opened = upcastStoredEvents<VerificationEvent>(registry, await open(of(stream, sealed)));
    const clear = upcastStoredEvents<VerificationEvent>(registry, of(stream));
    expect(opened[0]).toEqual(clear[0]);
    expect(opened[1]).toEqual({ ...clear[1], data: { ...clear[1].data, certificate: null } });
    expect(opened.reduce(evolveVerification, initialVerificationState)).toEqual(clear.reduce(evolveVerification, initialVerificationState));

    const stored2 = of(stream, sealed).map((event) => event.data as unknown as StoredVerificationSignals);
    const updates = stored2.flatMap((data) => signalUpdates(data));
    expect(updates.map((update) => update.id)).toContain('observations:acct_fixture:device:hD0000000000000000000000000000001');
    const doc = updates.find((update) => update.id.startsWith('observations:acct_fixture:customer:'))!.evolve(undefined);
    const sealing = new IdentitySealing(fixtureVault(), refKey);
    expect(doc.kind === 'observations' && (await sealing.openObservations('acct_fixture', doc.observations))).toEqual([{ lat: 5.6039, lng: -0.187, accuracy_m: 10, observed_at: '2026-11-23T09:59:00.000Z' }]);
  });

  it('reads the version-2 verifications and delivery after an erasure: the decisions and the fold stay, no position', async () => {
    const opener = new IdentityFieldOpener(fixtureVault(true));
    const erased = await Promise.all(sealed.map(async (event) => ({ ...event, data: await opener.open({ type: event.type, data: event.data, streamName: event.stream! }) })));
    expect(JSON.stringify(erased)).not.toMatch(/"lat"|"lng"|6Q3HQKQ4ZA|Ama Mensah|eyJ/);
    const verifications = upcastStoredEvents<VerificationEvent>(registry, of('identity_verification-acct_fixture:cust-1', erased));
    expect(verifications.map((event) => ({ decision: event.data.decision, location_erased: (event.data as { location_erased?: boolean }).location_erased }))).toEqual([
      { decision: 'within', location_erased: true },
      { decision: undefined, location_erased: true },
    ]);
    expect(verifications.reduce(evolveVerification, initialVerificationState)).toMatchObject({ verifications: 2, last_verified_at: '2026-11-23T11:00:00.000Z' });
    const [delivery] = upcastStoredEvents<DeliveryEvent>(registry, of('pod_delivery-acct_fixture:dlv-1', erased));
    expect(evolveDelivery(initialDeliveryState, delivery)).toMatchObject({ status: 'confirmed', confirmation: { receipt_id: 'rcpt_9f8e7d6c5b4a39281706f5e4d3c2b1a0', location_erased: true } });
  });

  it('reads the version-1 delivery confirmation, and the version-2 one opened, into a confirmed delivery and its webhook payload', async () => {
    const opener = new IdentityFieldOpener(fixtureVault());
    const opened = await Promise.all(of('pod_delivery-acct_fixture:dlv-1', sealed).map(async (event) => ({ ...event, data: await opener.open({ type: event.type, data: event.data, streamName: event.stream! }) })));
    expect(upcastStoredEvents<DeliveryEvent>(registry, opened)).toEqual(upcastStoredEvents<DeliveryEvent>(registry, of('pod_delivery-acct_fixture:dlv-1')));
    const events = upcastStoredEvents<DeliveryEvent>(registry, of('pod_delivery-acct_fixture:dlv-1'));
    const state = events.reduce(evolveDelivery, initialDeliveryState);
    expect(state).toMatchObject({ status: 'confirmed', confirmation: { receipt_id: 'rcpt_9f8e7d6c5b4a39281706f5e4d3c2b1a0' } });
    expect(deliveryConfirmedPayload(events[0].data)).toEqual({
      event: 'delivery.confirmed',
      delivery_id: 'dlv-1',
      customer_id: 'cust-1',
      receipt_id: 'rcpt_9f8e7d6c5b4a39281706f5e4d3c2b1a0',
      receipt: 'eyJhbGciOiJFZERTQSJ9.e30.c2ln',
      kid: '2vcrqg6bQCFPmI1K1gKXLKj750XVONVw39jEm1fsi7M',
      location_code: '6Q3HQKQ4ZA',
      address_code: '6Q3HQKQ4ZA',
      distance_m: 0.5,
      decision: 'within',
      recipient_name: 'Ama Mensah',
      photo_sha256: '2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae',
      timestamp: '2026-11-23T12:00:01.000Z',
    });
  });
});
