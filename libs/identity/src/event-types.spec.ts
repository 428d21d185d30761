import { EventRegistry } from '../../platform/src/index.js';
import { readStoredEvents, upcastStoredEvents } from '../../../test/support/stored-events.js';
import { deliveryConfirmedPayload } from './notifications/identity-notifications.js';
import { DELIVERY_EVENT_TYPES, evolveDelivery, initialDeliveryState, type DeliveryEvent } from './domain/delivery.js';
import { evolveSigningKeys, initialSigningKeysState, SIGNING_KEY_EVENT_TYPES, type SigningKeyEvent } from './domain/signing-keys.js';
import { evolveVerification, initialVerificationState, VERIFICATION_EVENT_TYPES, type VerificationEvent } from './domain/verification.js';
import { identityEventTypes } from './event-types.js';
import { signalUpdates } from './public/identity-signals.read-model.js';

/** Stored JSON from schema version 1 must still fold into today's state (style.md: upcasters against fixtures). */
const stored = readStoredEvents(new URL('./__fixtures__/identity-events.v1.json', import.meta.url));
const of = (stream: string) => stored.filter((event) => event.stream === stream);

describe('identity event types', () => {
  const registry = new EventRegistry().register(...identityEventTypes);

  it('registers every stored type with a version, and the fixture holds one of each', () => {
    const types = [...SIGNING_KEY_EVENT_TYPES, ...VERIFICATION_EVENT_TYPES, ...DELIVERY_EVENT_TYPES];
    for (const type of types) expect(registry.version(type)).toBe(1);
    expect(new Set(stored.map((event) => event.type))).toEqual(new Set(types));
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
    expect(events.flatMap((event) => signalUpdates(event).map((update) => update.id))).toEqual([
      'link:acct_fixture:ip:hI0000000000000000000000000000001',
      'link:acct_fixture:device:hD0000000000000000000000000000001',
      'observations:acct_fixture:customer:hC0000000000000000000000000000001',
      'observations:acct_fixture:device:hD0000000000000000000000000000001',
      'link:acct_fixture:ip:hI0000000000000000000000000000001',
      'link:acct_fixture:phone:hP0000000000000000000000000000001',
      'observations:acct_fixture:customer:hC0000000000000000000000000000001',
    ]);
  });

  it('reads the version-1 delivery confirmation into a confirmed delivery and its webhook payload', () => {
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
