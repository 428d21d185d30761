import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { linkDocId, observationsDocId, summarizeFraudCheck, type IdentitySignalDoc, type ProximityVerified } from '../../libs/identity/src/index.js';
import { collectionName, EmbeddedReadStore, type RecordedEvent } from '../../libs/platform/src/index.js';
import { identitySignalsProjection } from './identity-signals.projection.js';

/**
 * A proximity verification as the pipeline stores it: its clear fields, the
 * sealed envelope (opaque here: the projection copies it and never opens it;
 * libs/identity/src/sealing/identity-sealing.int-spec.ts opens what it copies),
 * or in the clear as before ADR 0054 (version 1).
 */
function verified(position: bigint, customer: string, at: string, overrides: Partial<ProximityVerified['data']['signals']> = {}, form: 'sealed' | 'clear' = 'sealed'): RecordedEvent {
  const data: ProximityVerified['data'] = {
    verification_id: `vrf_${position}`,
    account_id: 'acct_a',
    customer_id: customer,
    subject: 'sub_x',
    address: { input: 'x', code: 'X', input_kind: 'hex_code', precision: 'cell', label: null, lat: 5.6, lng: -0.19, accuracy_m: 4 },
    device: { lat: 5.6 + Number(position) / 1000, lng: -0.19, accuracy_m: 10, recorded_at: at },
    decision: 'within',
    distance_m: 1,
    radius_m: 100,
    reasons: ['within_radius'],
    provenance: { source: 'device_gps', provider: 'caller', accuracy_meters: 10, confidence: 0.68, verified_at: at },
    fraud_check: summarizeFraudCheck({}),
    signals: { customer_hash: `h-${customer}`, device_hash: 'h-dev', ip_hash: 'h-ip', phone_hash: null, email_hash: null, ...overrides },
    certificate: { jti: `vrf_${position}`, kid: 'k1', token: 'h.p.s', iat: 1, exp: 2 },
    verified_at: at,
  };
  const { address: _address, device: _device, certificate, ...clear } = data;
  const sealed = {
    key_id: `key-${customer}`,
    ...clear,
    certificate: certificate && { jti: certificate.jti, kid: certificate.kid, iat: certificate.iat, exp: certificate.exp, sha256: 'digest' },
    sealed: `v1.sealed-${position}`,
    signal_ref: `ref-of-${customer}`,
    signal_observations: [{ observed_at: at, sealed: `v1.observation-${position}` }],
  };
  return {
    id: `event-${position}`,
    streamName: `identity_verification-acct_a:${customer}`,
    type: 'ProximityVerified',
    data: form === 'sealed' ? sealed : (data as unknown as Record<string, unknown>),
    metadata: { schema_version: form === 'sealed' ? 2 : 1 },
    revision: 0n,
    position,
    createdAt: new Date(at),
  };
}

describe('identity_signals projection', () => {
  it('links customers to the IP and device by keyed hash, keeps the latest observations, and ignores a replayed event', async () => {
    const store = await EmbeddedReadStore.open(mkdtempSync(path.join(tmpdir(), 'identity-signals-')));
    try {
      const collection = await store.collection<IdentitySignalDoc>(collectionName(identitySignalsProjection), identitySignalsProjection.indexes);
      await identitySignalsProjection.apply(verified(1n, 'c1', '2026-11-23T10:00:00.000Z'), collection);
      await identitySignalsProjection.apply(verified(2n, 'c2', '2026-11-23T10:05:00.000Z', { ip_hash: null }), collection);
      await identitySignalsProjection.apply(verified(3n, 'c1', '2026-11-23T10:10:00.000Z'), collection);

      const ip = await collection.getStored(linkDocId('acct_a', 'ip', 'h-ip'));
      const device = await collection.getStored(linkDocId('acct_a', 'device', 'h-dev'));
      const customer = await collection.getStored(observationsDocId('acct_a', 'customer', 'h-c1'));
      expect(ip?.doc).toEqual({ id: linkDocId('acct_a', 'ip', 'h-ip'), kind: 'link', account_id: 'acct_a', identifier: 'ip', customers: { 'h-c1': '2026-11-23T10:10:00.000Z' } });
      expect(device?.doc).toMatchObject({ customers: { 'h-c1': '2026-11-23T10:10:00.000Z', 'h-c2': '2026-11-23T10:05:00.000Z' } });
      expect(customer?.doc).toMatchObject({ kind: 'observations', subject: 'customer', observations: [{ observed_at: '2026-11-23T10:10:00.000Z' }, { observed_at: '2026-11-23T10:00:00.000Z' }] });
      expect(customer?.doc.kind === 'observations' && customer.doc.observations.map((observation) => Object.keys(observation).sort())).toEqual([
        ['key_id', 'observed_at', 'ref', 'sealed'],
        ['key_id', 'observed_at', 'ref', 'sealed'],
      ]);
      expect((await collection.find({ index: 'by_account', equals: ['acct_a', 'link'] })).items.map((doc) => doc.id)).toEqual([linkDocId('acct_a', 'device', 'h-dev'), linkDocId('acct_a', 'ip', 'h-ip')].sort());
      const text = JSON.stringify([ip, device, customer], (_, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));
      expect(text).not.toMatch(/"c1"|"c2"|"lat"|"lng"/);
      // Copied as stored: the customer's key id, the sealed reference and the sealed position; the velocity check opens them.
      expect(customer?.doc).toMatchObject({ observations: [{ key_id: 'key-c1', ref: 'ref-of-c1', sealed: 'v1.observation-3' }, { key_id: 'key-c1', ref: 'ref-of-c1', sealed: 'v1.observation-1' }] });

      // At least once: the same event again changes nothing.
      await identitySignalsProjection.apply(verified(3n, 'c1', '2026-11-23T10:10:00.000Z'), collection);
      await identitySignalsProjection.apply(verified(1n, 'c1', '2026-11-23T10:00:00.000Z'), collection);
      expect(await collection.getStored(observationsDocId('acct_a', 'customer', 'h-c1'))).toEqual(customer);
      expect(await collection.getStored(linkDocId('acct_a', 'ip', 'h-ip'))).toEqual(ip);
    } finally {
      await store.close();
    }
  });

  it('takes links but no observation from a verification stored in the clear before sealing', async () => {
    const store = await EmbeddedReadStore.open(mkdtempSync(path.join(tmpdir(), 'identity-signals-')));
    try {
      const collection = await store.collection<IdentitySignalDoc>(collectionName(identitySignalsProjection), identitySignalsProjection.indexes);
      await identitySignalsProjection.apply(verified(1n, 'c1', '2026-11-23T10:00:00.000Z', {}, 'clear'), collection);
      expect(await collection.get(linkDocId('acct_a', 'ip', 'h-ip'))).toMatchObject({ customers: { 'h-c1': '2026-11-23T10:00:00.000Z' } });
      expect(await collection.get(observationsDocId('acct_a', 'customer', 'h-c1'))).toBeUndefined();
      expect(await collection.get(observationsDocId('acct_a', 'device', 'h-dev'))).toBeUndefined();
    } finally {
      await store.close();
    }
  });

  it('keeps 10 observations per subject and forgets links older than 90 days', async () => {
    const store = await EmbeddedReadStore.open(mkdtempSync(path.join(tmpdir(), 'identity-signals-')));
    try {
      const collection = await store.collection<IdentitySignalDoc>(collectionName(identitySignalsProjection), identitySignalsProjection.indexes);
      await identitySignalsProjection.apply(verified(1n, 'old', '2026-01-01T00:00:00.000Z'), collection);
      for (let index = 2; index <= 14; index++) {
        await identitySignalsProjection.apply(verified(BigInt(index), 'c1', `2026-11-23T10:${String(index).padStart(2, '0')}:00.000Z`), collection);
      }
      const observations = await collection.get(observationsDocId('acct_a', 'device', 'h-dev'));
      expect(observations?.kind === 'observations' && observations.observations.map((o) => o.observed_at.slice(11, 16))).toEqual(['10:14', '10:13', '10:12', '10:11', '10:10', '10:09', '10:08', '10:07', '10:06', '10:05']);
      expect((await collection.get(linkDocId('acct_a', 'device', 'h-dev')))).toMatchObject({ customers: { 'h-c1': '2026-11-23T10:14:00.000Z' } });
      const link = await collection.get(linkDocId('acct_a', 'device', 'h-dev'));
      expect(link?.kind === 'link' && Object.keys(link.customers)).toEqual(['h-c1']);
    } finally {
      await store.close();
    }
  });
});
