import { latLngToCell } from 'h3-js';
import { cellRadiusMeters, hexCodeFromCell } from '../libs/addressing/src/index.js';
import { bootService, type Service } from './support/boot.js';
import { data, json, signUp } from './support/http.js';

/**
 * Issue 26, items 2 and 3 (docs/adr/0030): a recorded ping carries the
 * client's mock-location flag, and the KYC verification weighs it as it does
 * an asserted simulated position; a decoded hex code's provenance is computed
 * by rule, not a constant confidence 1 stamped "now".
 */
const ACCRA = { lat: 5.6037, lng: -0.187 };
const cell = latLngToCell(ACCRA.lat, ACCRA.lng, 13);
const home = hexCodeFromCell(cell);

describe('recorded mock locations and decoded-code provenance (issue 26, ADR 30)', () => {
  let service: Service;
  beforeAll(async () => {
    service = await bootService();
  }, 60_000);
  afterAll(async () => {
    await service?.close();
  });

  const post = async <T>(key: string, url: string, body: unknown): Promise<T> => {
    const response = await service.request('POST', url, { key, body });
    const answer = await json<{ data: T; error?: unknown }>(response);
    expect({ status: response.status, error: answer.error }).toEqual({ status: 200, error: undefined });
    return answer.data;
  };
  const hoursAgo = (hours: number, serial: number) => ({ lat: ACCRA.lat + serial * 1e-6, lng: ACCRA.lng, accuracy_m: 10, recorded_at: new Date(Date.now() - hours * 3_600_000).toISOString() });

  it('stores the mock_location flag of a recorded ping, and a verification over a simulated recorded ping fails', async () => {
    const key = await signUp(service, 'Mocker');
    for (const customer of ['mk-1', 'mk-2']) await post(key, '/v2/consent/grant', { customer_id: customer });
    const pings = (customer: string, mock: boolean) => [
      { customer_id: customer, ...hoursAgo(30, 1), mock_location: false },
      { customer_id: customer, ...hoursAgo(20, 2), mock_location: mock },
      { customer_id: customer, ...hoursAgo(10, 3) },
    ];
    expect(await post(key, '/v2/monitoring/pings', { pings: pings('mk-1', true) })).toMatchObject({ accepted: 3 });
    expect(await post(key, '/v2/monitoring/pings', { pings: pings('mk-2', false) })).toMatchObject({ accepted: 3 });

    const mocked = await post<{ decision: string; reasons: Array<{ code: string }>; evidence: { mock_locations: number; recorded_pings: string }; certificate: string | null }>(key, '/v2/kyc/verify', {
      customer_id: 'mk-1',
      address: home,
    });
    expect(mocked).toMatchObject({ decision: 'failed', certificate: null, evidence: { mock_locations: 1, recorded_pings: 'used' } });
    expect(mocked.reasons.map((reason) => reason.code)).toContain('mock_location_reported');

    const honest = await post<{ decision: string; reasons: Array<{ code: string }>; evidence: { mock_locations: number } }>(key, '/v2/kyc/verify', { customer_id: 'mk-2', address: home });
    expect(honest.decision).not.toBe('failed');
    expect(honest.evidence.mock_locations).toBe(0);
    expect(honest.reasons.map((reason) => reason.code)).not.toContain('mock_location_reported');
  }, 30_000);

  it('refuses a mock_location that is not a boolean, in that ping’s outcome', async () => {
    const key = await signUp(service, 'MockBad');
    await post(key, '/v2/consent/grant', { customer_id: 'mk-3' });
    const answer = await post<{ accepted: number; items: Array<{ status: string; error?: { code: string; message: string } }> }>(key, '/v2/monitoring/pings', {
      pings: [
        { customer_id: 'mk-3', ...hoursAgo(2, 1), mock_location: 'yes' },
        { customer_id: 'mk-3', ...hoursAgo(1, 2), mock_location: true },
      ],
    });
    expect(answer.accepted).toBe(1);
    expect(answer.items[0]).toMatchObject({ status: "refused" });
    expect(JSON.stringify(answer)).toMatch(/mock_location/);
    // The single-ping form takes it too.
    const single = await service.request('POST', '/v2/monitoring/pings', { key, body: { customer_id: 'mk-3', ...hoursAgo(0.5, 3), mock_location: false } });
    expect({ status: single.status, outcome: (await data<{ status: string }>(single)).status }).toEqual({ status: 200, outcome: 'accepted' });
  });

  it("a decoded hex code's provenance: the cell's size, confidence by rule (not 1), established by the code scheme (not now)", async () => {
    const key = await signUp(service, 'Decoder');
    const before = Date.now();
    const lookup = await data<{ provenance: { source: string; accuracy_meters: number; confidence: number; verified_at: string } }>(await service.request('GET', `/v2/lookup?address=${home}`, { key }));
    expect(lookup.provenance.source).toBe('geocoded_text');
    expect(lookup.provenance.accuracy_meters).toBeCloseTo(cellRadiusMeters(cell), 0);
    expect(lookup.provenance.confidence).toBeLessThan(1);
    expect(lookup.provenance.confidence).toBeGreaterThan(0);
    expect(Date.parse(lookup.provenance.verified_at)).toBeLessThan(before - 60_000);
    const resolved = await data<{ provenance: { confidence: number; verified_at: string } }>(await service.request('GET', `/v2/address/resolve?address=${home}`, { key }));
    expect(resolved.provenance).toMatchObject({ confidence: lookup.provenance.confidence, verified_at: lookup.provenance.verified_at });
  });
});
