import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { latLngToCell } from 'h3-js';
import { hexCodeFromCell } from '../libs/addressing/src/index.js';
import { CustomerVerifications } from '../libs/identity/src/index.js';
import { bootService, type Service } from './support/boot.js';
import { accountOf, json, signUp } from './support/http.js';

/**
 * Issue 47 for the identity context: erasure reaches identity's fixes (ADR
 * 0054), and velocity weighs the customer's recorded pings. After a KYC
 * verification, a proximity check and a proof of delivery for a consented
 * customer, then revoke and delete-data, the customer's copy shows the
 * verifications without a position, a repeated delivery confirmation cannot
 * answer its receipt, and no byte of DATA_DIR (event store, read store, keys,
 * everything) holds a coordinate identity was given: as text, float64 or
 * float32, in either byte order, nor the hex codes it stored.
 */

/** Distinctive coordinates (seven decimals) that only identity is given. */
const at = {
  kyc: [
    { lat: 5.6038814, lng: -0.1869253 },
    { lat: 5.6038277, lng: -0.1869861 },
  ],
  device: { lat: 5.6036917, lng: -0.1871462 },
  courier: { lat: 5.6039583, lng: -0.1868724 },
};
const HOME = hexCodeFromCell(latLngToCell(5.6037, -0.187, 13));
const ACCRA = { lat: 5.6037, lng: -0.187 };
const KUMASI = { lat: 6.6885, lng: -1.6244 };

function needles(values: { coordinates: number[]; texts: string[] }): Array<{ label: string; bytes: Buffer }> {
  const found: Array<{ label: string; bytes: Buffer }> = values.texts.map((text) => ({ label: text, bytes: Buffer.from(text, 'utf8') }));
  for (const value of values.coordinates) {
    found.push({ label: `${value} as text`, bytes: Buffer.from(String(value), 'utf8') });
    for (const order of ['LE', 'BE'] as const) {
      const float64 = Buffer.alloc(8);
      const float32 = Buffer.alloc(4);
      if (order === 'LE') {
        float64.writeDoubleLE(value);
        float32.writeFloatLE(value);
      } else {
        float64.writeDoubleBE(value);
        float32.writeFloatBE(value);
      }
      found.push({ label: `${value} as float64 ${order}`, bytes: float64 }, { label: `${value} as float32 ${order}`, bytes: float32 });
    }
  }
  return found;
}

/** Every regular file under `dir`, read whole (LMDB files too: pages freed but not wiped are searched as well). */
function scan(dir: string, wanted: ReadonlyArray<{ label: string; bytes: Buffer }>): string[] {
  const hits: string[] = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() && statSync(full).size > 0) {
        const bytes = readFileSync(full);
        for (const needle of wanted) if (bytes.indexOf(needle.bytes) >= 0) hits.push(`${path.relative(dir, full)}: ${needle.label}`);
      }
    }
  };
  walk(dir);
  return hits;
}

describe('identity and erasure (issue 47)', () => {
  let service: Service;

  beforeAll(async () => {
    service = await bootService();
  }, 60_000);
  afterAll(async () => {
    await service?.close();
  });

  const call = async <T>(key: string, method: string, url: string, body?: unknown) => {
    const response = await service.request(method, url, { key, body });
    const answer = await json<{ data: T; error?: { code: string } }>(response);
    return { status: response.status, data: answer.data, error: answer.error };
  };
  const ok = async <T>(key: string, method: string, url: string, body?: unknown): Promise<T> => {
    const answer = await call<T>(key, method, url, body);
    expect({ status: answer.status, error: answer.error }).toEqual({ status: 200, error: undefined });
    return answer.data;
  };

  describe('velocity over the pings the service holds', () => {
    it('a consented ping in Kumasi 15 s before a proximity check in Accra for the same customer and device: review, velocity flagged, no certificate', async () => {
      const key = await signUp(service, 'Velocity');
      await ok(key, 'POST', '/v2/consent/grant', { customer_id: 'v-1', purpose: 'loan_collections' });
      const recorded_at = new Date(Date.now() - 15_000).toISOString();
      expect(await ok(key, 'POST', '/v2/monitoring/pings', { pings: [{ customer_id: 'v-1', ...KUMASI, accuracy_m: 10, recorded_at, device_id: 'phone-v' }] })).toMatchObject({ accepted: 1 });

      const answer = await ok<{ decision: string; location_decision: string; reasons: string[]; fraud_check: { flags: string[]; checks: Record<string, { status: string; detail: string }> }; certificate: string | null; certificate_withheld: string | null }>(
        key,
        'POST',
        '/v2/verify/proximity',
        { customer_id: 'v-1', address: HOME, ...ACCRA, accuracy_m: 10, device_id: 'phone-v' },
      );
      expect(answer).toMatchObject({ decision: 'review', location_decision: 'within', certificate: null, certificate_withheld: expect.stringMatching(/review/) });
      expect(answer.fraud_check.flags).toEqual(['velocity']);
      expect(answer.fraud_check.checks.velocity).toMatchObject({ status: 'flagged', detail: expect.stringMatching(/km apart imply \d+ km\/h/) });
      expect(answer.reasons[0]).toBe('fraud_velocity');

      // KYC weighs them too: a position sent for now in Accra against the ping in Kumasi.
      const kyc = await ok<{ decision: string; fraud_check: { flags: string[] } }>(key, 'POST', '/v2/kyc/verify', {
        customer_id: 'v-1',
        address: HOME,
        positions: [{ ...ACCRA, accuracy_m: 10, recorded_at: new Date().toISOString() }],
        use_recorded_pings: false,
      });
      expect(kyc).toMatchObject({ decision: 'review', fraud_check: { flags: ['velocity'] } });
    }, 30_000);

    it('pings are weighed under consent only: after a revoke the same trip is not flagged', async () => {
      const key = await signUp(service, 'Revoked');
      await ok(key, 'POST', '/v2/consent/grant', { customer_id: 'v-2', purpose: 'loan_collections' });
      expect(await ok(key, 'POST', '/v2/monitoring/pings', { pings: [{ customer_id: 'v-2', ...KUMASI, accuracy_m: 10, recorded_at: new Date(Date.now() - 15_000).toISOString() }] })).toMatchObject({ accepted: 1 });
      await ok(key, 'POST', '/v2/consent/revoke', { customer_id: 'v-2' });
      const answer = await ok<{ decision: string; fraud_check: { flagged: boolean; checks: Record<string, { status: string }> }; certificate: string | null }>(key, 'POST', '/v2/verify/proximity', {
        customer_id: 'v-2',
        address: HOME,
        ...ACCRA,
        accuracy_m: 10,
      });
      expect(answer).toMatchObject({ decision: 'within', fraud_check: { flagged: false, checks: { velocity: { status: 'clear' } } }, certificate: expect.any(String) });
    }, 30_000);
  });

  describe('erasure', () => {
    it('after revoke and delete-data the copy holds no position, a repeated delivery cannot answer its receipt, and DATA_DIR holds none of the coordinates', async () => {
      const key = await signUp(service, 'Erasure');
      const account = await accountOf(service, key);
      const customer = 'erase-me-1';
      await ok(key, 'POST', '/v2/consent/grant', { customer_id: customer, purpose: 'loan_collections' });
      const hour = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();
      const kyc = await ok<{ verification_id: string; decision: string }>(key, 'POST', '/v2/kyc/verify', {
        customer_id: customer,
        address: HOME,
        positions: at.kyc.map((position, index) => ({ ...position, accuracy_m: 12, recorded_at: hour(2 + index) })),
      });
      const proximity = await ok<{ verification_id: string; decision: string; certificate: string; certificate_id: string; address: { lat: number; lng: number } }>(key, 'POST', '/v2/verify/proximity', {
        customer_id: customer,
        address: HOME,
        ...at.device,
        accuracy_m: 10,
        device_id: 'phone-erase',
      });
      expect(proximity.decision).toBe('within');
      const receipt = await ok<{ location_code: string; receipt: string }>(key, 'POST', '/v2/pod/confirm', { delivery_id: 'dlv-erase', customer_id: customer, ...at.courier, accuracy_m: 8, address: HOME, recipient_name: 'Akosua Erased' });

      type Copy = { document: { verifications: { items: Array<Record<string, unknown>> } } };
      const before = await ok<Copy>(key, 'POST', '/v2/consent/access-request', { customer_id: customer });
      // Before the erasure the customer's copy is whole: identity opens its verifications with the customer's key.
      expect(before.document.verifications.items.map((item) => item.type)).toEqual(['AddressVerified', 'ProximityVerified']);
      expect(before.document.verifications.items[0]).toMatchObject({ positions: at.kyc.map((position) => expect.objectContaining(position)), address: { code: HOME } });
      expect(before.document.verifications.items[1]).toMatchObject({ device: expect.objectContaining(at.device), certificate: { token: proximity.certificate } });

      expect((await call(key, 'POST', '/v2/consent/revoke', { customer_id: customer })).status).toBe(200);
      expect((await call(key, 'POST', '/v2/consent/delete-data', { customer_id: customer })).status).toBe(200);

      const coordinates = [...at.kyc.flatMap(({ lat, lng }) => [lat, lng]), at.device.lat, at.device.lng, at.courier.lat, at.courier.lng, proximity.address.lat, proximity.address.lng];
      const texts = [HOME, receipt.location_code, 'Akosua Erased', proximity.certificate, receipt.receipt];
      const wanted = needles({ coordinates, texts });

      // What identity publishes of the customer (compliance's copy is built from it): every verification, opened
      // with the customer's key, which is gone: the decisions stay, with the certificate's id and digest, and no
      // address, position, fix or JWS.
      const published = await service.app.get(CustomerVerifications, { strict: false }).of(account, customer);
      expect(published.items.map((item) => ({ type: item.type, verification_id: item.verification_id, location_erased: item.location_erased }))).toEqual([
        { type: 'AddressVerified', verification_id: kyc.verification_id, location_erased: true },
        { type: 'ProximityVerified', verification_id: proximity.verification_id, location_erased: true },
      ]);
      expect(published.items[1]).toMatchObject({ decision: 'within', certificate: { jti: proximity.certificate_id, sha256: expect.any(String) }, verified_at: expect.any(String) });
      const unlocated = (text: string) => expect(wanted.filter((needle) => text.includes(needle.bytes.toString('utf8'))).map((needle) => needle.label)).toEqual([]);
      // (`positions` stays as a count in the evidence summaries: never as the list of positions sent.)
      expect(JSON.stringify(published)).not.toMatch(/"(lat|lng|device|address|token)"|"positions":\[/);
      unlocated(JSON.stringify(published));
      // The customer's copy: the verifications are there as decisions, and no position anywhere.
      const after = await ok<Copy>(key, 'POST', '/v2/consent/access-request', { customer_id: customer });
      expect(after.document.verifications.items).toEqual([
        expect.objectContaining({ type: 'AddressVerified', verification_id: kyc.verification_id, decision: kyc.decision }),
        expect.objectContaining({ type: 'ProximityVerified', verification_id: proximity.verification_id, decision: 'within', certificate: expect.objectContaining({ jti: proximity.certificate_id }) }),
      ]);
      expect(JSON.stringify(after)).not.toMatch(/"(lat|lng|device|token)"|"positions":\[/);
      unlocated(JSON.stringify(after));

      // The receipt went with the erasure: confirming the delivery again cannot answer it, and signs no second one.
      expect(await call(key, 'POST', '/v2/pod/confirm', { delivery_id: 'dlv-erase', customer_id: customer, ...ACCRA })).toMatchObject({ status: 410, error: { code: 'DELIVERY_ERASED' } });
      const stream = await service.runtime.backends.events.readStream(`pod_delivery-${account}:dlv-erase`);
      expect(stream.map((event) => event.type)).toEqual(['DeliveryConfirmed']);

      // Every byte the service wrote, once it has closed its stores.
      const dataDir = service.dataDir;
      await service.close();
      expect(scan(dataDir, wanted)).toEqual([]);
      service = await bootService({ dataDir });
    }, 60_000);
  });
});
