import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { customerDataKeySubject, EmbeddedDataKeyVault, SealedSecretError, SecretBox, type NewEvent, type RecordedEvent } from '../../../platform/src/index.js';
import { deliveryStream, type DeliveryConfirmed } from '../domain/delivery.js';
import { summarizeFraudCheck } from '../domain/fraud.js';
import { verificationStream, type AddressVerified, type ProximityVerified } from '../domain/verification.js';
import { signalUpdates, type StoredObservation, type StoredVerificationSignals } from '../public/identity-signals.read-model.js';
import { IdentityCodec, IdentitySealing, tokenDigest } from './identity-sealing.js';

const AT = '2026-11-23T10:00:00.000Z';
const provenance = { source: 'device_gps' as const, provider: 'caller', accuracy_meters: 10, confidence: 0.68, verified_at: AT };
const address = { input: '6Q3-HQK-Q4ZA', code: '6Q3HQKQ4ZA', input_kind: 'hex_code' as const, precision: 'cell' as const, label: null, lat: 5.6037012, lng: -0.1870044, accuracy_m: 4.1 };
const signals = (customer: string) => ({ customer_hash: `h-${customer}`, device_hash: 'h-dev', ip_hash: 'h-ip', phone_hash: null, email_hash: null });

function proximity(customer: string, lat: number, at = AT): ProximityVerified['data'] {
  return {
    verification_id: `vrf_${customer}_${at}`,
    account_id: 'acct_a',
    customer_id: customer,
    subject: 'sub_x',
    address,
    device: { lat, lng: -0.1871462, accuracy_m: 10, recorded_at: at, mock_location: false },
    decision: 'within',
    location_decision: 'within',
    distance_m: 22.1,
    radius_m: 100,
    reasons: ['within_radius'],
    provenance,
    fraud_check: summarizeFraudCheck({}),
    signals: signals(customer),
    certificate: { jti: `vrf_${customer}`, kid: 'k1', token: 'eyJhbGciOiJFZERTQSJ9.eyJhZGRyZXNzX2NvZGUiOiI2UTNIUUtRNFpBIn0.c2ln', iat: 1, exp: 2 },
    verified_at: at,
  };
}

function addressVerified(customer: string, count: number): AddressVerified['data'] {
  return {
    verification_id: `vrf_kyc_${customer}`,
    account_id: 'acct_a',
    customer_id: customer,
    address,
    result: 'not_verified',
    decision: 'likely',
    needed_for_verified: [],
    score: 0.9,
    radius_m: 100,
    reasons: [{ code: 'mostly_in_zone', message: '5 of 6 usable positions within 100 m of the address' }],
    evidence: { from_request: count, from_recorded_pings: 0, recorded_pings: 'not_requested', usable: count, in_zone: count, share_in_zone: 1, days_observed: 2, nights_observed: 0, nights_at_home: 0 },
    positions: Array.from({ length: count }, (_, index) => ({ lat: 5.6038814 + index * 1e-6, lng: -0.1869253, accuracy_m: 12, recorded_at: `2026-11-2${index % 2}T${String(10 + index).padStart(2, '0')}:00:00.000Z` })),
    provenance,
    fraud_check: summarizeFraudCheck({}),
    signals: signals(customer),
    certificate: null,
    verified_at: AT,
  };
}

const recorded = (stream: string, event: NewEvent): RecordedEvent => ({ id: 'e1', streamName: stream, type: event.type, data: event.data, metadata: event.metadata ?? {}, revision: 0n, position: 1n, createdAt: new Date(AT) });

describe('identity sealing (ADR 0054)', () => {
  let vault: EmbeddedDataKeyVault;
  let sealing: IdentitySealing;

  beforeEach(async () => {
    vault = await EmbeddedDataKeyVault.open(mkdtempSync(path.join(tmpdir(), 'identity-sealing-')), SecretBox.fromKey(randomBytes(32)));
    sealing = await IdentitySealing.open(vault);
  });
  afterEach(() => vault.close());

  it('stores a proximity verification with its address, fix and certificate sealed, and opens it back to what was decided', async () => {
    const data = proximity('c1', 5.6036917);
    const stream = verificationStream('acct_a', 'c1');
    const stored = await sealing.seal(stream, { type: 'ProximityVerified', data, metadata: { schema_version: 2 } });
    const text = JSON.stringify(stored.data);
    for (const hidden of ['5.6036917', '-0.1871462', '5.6037012', '6Q3HQKQ4ZA', '6Q3-HQK-Q4ZA', data.certificate!.token]) expect(text).not.toContain(hidden);
    expect(stored.data).toMatchObject({ verification_id: data.verification_id, customer_id: 'c1', decision: 'within', distance_m: 22.1, certificate: { jti: 'vrf_c1', kid: 'k1', iat: 1, exp: 2, sha256: tokenDigest(data.certificate!.token) } });
    expect(stored.data).not.toHaveProperty('address');
    expect(stored.data).not.toHaveProperty('device');
    expect(stored.data.signal_observations).toEqual([{ observed_at: AT, sealed: expect.any(String) }]);

    const session = new IdentityCodec(sealing).session(stream);
    const opened = await session.open(recorded(stream, stored));
    expect(opened?.data).toEqual(data);
  });

  it('seals the positions of a KYC verification and gives the signals its 10 newest observations, sealed', async () => {
    const data = addressVerified('c1', 12);
    const stream = verificationStream('acct_a', 'c1');
    const stored = await sealing.seal(stream, { type: 'AddressVerified', data, metadata: { schema_version: 2 } });
    expect(JSON.stringify(stored.data)).not.toContain('5.6038');
    expect(stored.data.certificate).toBeNull();
    const observations = stored.data.signal_observations as Array<{ observed_at: string }>;
    expect(observations.map((observation) => observation.observed_at)).toEqual(
      data.positions
        .map((position) => position.recorded_at)
        .sort()
        .reverse()
        .slice(0, 10),
    );
    expect(await sealing.open(recorded(stream, stored))).toEqual(data);
  });

  it('seals a delivery naming a customer, and leaves one naming none as it is', async () => {
    const confirmation: DeliveryConfirmed['data'] = {
      account_id: 'acct_a',
      delivery_id: 'dlv-1',
      customer_id: 'c1',
      receipt_id: 'rcpt_1',
      kid: 'k1',
      receipt: 'h.p.s',
      courier: { lat: 5.6039583, lng: -0.1868724, accuracy_m: 8, recorded_at: AT, device_hash: null },
      location_code: '6Q3HQKQ5AB',
      address: { code: '6Q3HQKQ4ZA', distance_m: 3, radius_m: 100, decision: 'within' },
      recipient_name: 'Ama Mensah',
      photo_sha256: null,
      provenance,
      confirmed_at: AT,
    };
    const stream = deliveryStream('acct_a', 'dlv-1');
    const stored = await sealing.seal(stream, { type: 'DeliveryConfirmed', data: { ...confirmation } });
    expect(JSON.stringify(stored.data)).not.toMatch(/5\.6039583|6Q3HQKQ5AB|6Q3HQKQ4ZA|Ama Mensah|h\.p\.s/);
    expect(stored.data).toMatchObject({ receipt_id: 'rcpt_1', customer_id: 'c1', receipt_sha256: tokenDigest('h.p.s') });
    expect(stored.data).not.toHaveProperty('signal_observations');
    expect(await sealing.open(recorded(stream, stored))).toEqual(confirmation);

    const anonymous = { type: 'DeliveryConfirmed', data: { ...confirmation, customer_id: null } };
    expect(await sealing.seal(stream, anonymous)).toBe(anonymous);
    await vault.destroy(customerDataKeySubject('acct_a', 'c1'));
    expect(await sealing.open(recorded(stream, stored))).toEqual({
      account_id: 'acct_a',
      delivery_id: 'dlv-1',
      customer_id: 'c1',
      receipt_id: 'rcpt_1',
      kid: 'k1',
      photo_sha256: null,
      provenance,
      confirmed_at: AT,
      receipt_sha256: tokenDigest('h.p.s'),
      location_erased: true,
    });
  });

  it('after the customer’s key is destroyed, a verification opens to what stays and its observations are gone; another customer’s still open', async () => {
    const stream = verificationStream('acct_a', 'c1');
    const first = await sealing.seal(stream, { type: 'ProximityVerified', data: proximity('c1', 5.6036917) });
    const second = await sealing.seal(verificationStream('acct_a', 'c2'), { type: 'ProximityVerified', data: proximity('c2', 6.6885, '2026-11-23T10:05:00.000Z') });
    const entries = (stored: NewEvent): StoredObservation[] => {
      const update = signalUpdates(stored.data as unknown as StoredVerificationSignals).find((candidate) => candidate.id.startsWith('observations:') && candidate.id.includes(':device:'))!;
      const doc = update.evolve(undefined);
      return doc.kind === 'observations' ? doc.observations : [];
    };
    const device = [...entries(first), ...entries(second)];
    expect(JSON.stringify(device)).not.toMatch(/"c1"|"c2"|5\.6036917|6\.6885/);
    expect(await sealing.openObservations('acct_a', device)).toEqual([
      { lat: 5.6036917, lng: -0.1871462, accuracy_m: 10, observed_at: AT },
      { lat: 6.6885, lng: -0.1871462, accuracy_m: 10, observed_at: '2026-11-23T10:05:00.000Z' },
    ]);
    // Moved to another account, an observation does not open: its sealing is bound to the account.
    expect(await sealing.openObservations('acct_b', device)).toEqual([]);

    await vault.destroy(customerDataKeySubject('acct_a', 'c1'));
    expect(await sealing.openObservations('acct_a', device)).toEqual([{ lat: 6.6885, lng: -0.1871462, accuracy_m: 10, observed_at: '2026-11-23T10:05:00.000Z' }]);
    const erased = await sealing.open(recorded(stream, first));
    expect(erased).toMatchObject({ verification_id: first.data.verification_id, decision: 'within', distance_m: 22.1, location_erased: true, certificate: { jti: 'vrf_c1', sha256: expect.any(String) } });
    for (const gone of ['address', 'device', 'sealed', 'key_id', 'signal_ref', 'signal_observations', 'certificate_token']) expect(erased).not.toHaveProperty(gone);
    expect(erased.certificate).not.toHaveProperty('token');
    // A new key for the same customer (a later grant) does not open what the old one sealed.
    await vault.obtain(customerDataKeySubject('acct_a', 'c1'));
    expect(await sealing.open(recorded(stream, first))).toMatchObject({ location_erased: true });
  });

  it('reads a verification stored in the clear before sealing as it is, and refuses an altered sealed one', async () => {
    const clear = proximity('c1', 5.6036917) as unknown as Record<string, unknown>;
    const stream = verificationStream('acct_a', 'c1');
    expect(await sealing.open(recorded(stream, { type: 'ProximityVerified', data: clear, metadata: { schema_version: 1 } }))).toBe(clear);
    const stored = await sealing.seal(stream, { type: 'ProximityVerified', data: proximity('c1', 5.6036917) });
    // Bound to its stream: moved to another customer's stream, it does not open.
    await expect(sealing.open(recorded(verificationStream('acct_a', 'c9'), stored))).rejects.toBeInstanceOf(SealedSecretError);
    const sealed = String(stored.data.sealed);
    const altered = { ...stored, data: { ...stored.data, sealed: sealed.slice(0, -2) + (sealed.endsWith('A') ? 'BB' : 'AA') } };
    await expect(sealing.open(recorded(stream, altered))).rejects.toBeInstanceOf(SealedSecretError);
  });
});
