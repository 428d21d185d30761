import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { jest } from '@jest/globals';
import { latLngToCell } from 'h3-js';
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import { hexCodeFromCell } from '../libs/addressing/src/index.js';
import { importOsm } from '../libs/places/src/index.js';
import { FileDatasetStore } from '../libs/platform/src/index.js';
import { bootService, eventually, type Service } from './support/boot.js';
import { data, json, signUp } from './support/http.js';

/**
 * Issue 26, items 1 to 3 over HTTP (docs/adr/0030): evidence has an origin
 * and decisions weigh it; fraud signals change outcomes; provenance is
 * computed from the evidence. Each test failed against the service before
 * ADR 30: five invented positions were `verified` with score 1, impossible
 * travel sat beside `within` and a signed certificate, and an OSM city node
 * was 10 m accurate.
 */
const ISSUER = 'https://evidence.example.test';
const ACCRA = { lat: 5.6037, lng: -0.187 };
const KUMASI = { lat: 6.6885, lng: -1.6244 };
const home = hexCodeFromCell(latLngToCell(ACCRA.lat, ACCRA.lng, 13));
/** The equivalent radius of Kumasi Metropolitan's 214 km² (sqrt(214 / π) km): the city's extent, at the least. */
const KUMASI_EXTENT_M = 8250;

interface Kyc {
  decision: string;
  result: string;
  score: number | null;
  reasons: Array<{ code: string; message: string }>;
  needed_for_verified: Array<{ code: string; have: unknown; need: unknown }>;
  evidence: Record<string, any>;
  provenance: { source: string; accuracy_meters: number; confidence: number; verified_at: string };
  certificate: string | null;
}
interface Proximity {
  decision: string;
  location_decision: string;
  reasons: string[];
  evidence: Record<string, unknown>;
  provenance: { verified_at: string; confidence: number };
  fraud_check: { flags: string[] };
  certificate: string | null;
  certificate_withheld: string | null;
}

describe('evidence a lender can stand behind (issue 26, ADR 30)', () => {
  let service: Service;
  beforeAll(async () => {
    service = await bootService({ env: { PUBLIC_BASE_URL: ISSUER } });
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
  const jwks = async () => json<JSONWebKeySet>(await service.request('GET', '/v2/.well-known/jwks.json'));
  let serial = 0;
  /** A fix at home `days` ago at `hour`:30 UTC, jittering by centimetres as a device's fixes do. */
  const atHome = (days: number, hour: number) => {
    const at = new Date(Date.now() - days * 86_400_000);
    at.setUTCHours(hour, 30, 0, 0);
    return { lat: ACCRA.lat + 0.0001 + ++serial * 1e-7, lng: ACCRA.lng - serial * 1e-7, accuracy_m: 12, recorded_at: at.toISOString() };
  };
  /** Two fixes a day (09:30 and 23:30) over the six days before today. */
  const history = () => [6, 5, 4, 3, 2, 1].flatMap((days) => [atHome(days, 9), atHome(days, 23)]);

  it('invented positions alone are never verified, and the answer says what evidence would be', async () => {
    const key = await signUp(service, 'Invented');
    // The issue's reproduction: five positions made up by the caller, no consent, no recorded pings.
    const five = [atHome(4, 23), atHome(3, 23), atHome(2, 23), atHome(1, 23), atHome(1, 12)];
    const answer = await post<Kyc>(key, '/v2/kyc/verify', { customer_id: 'inv-1', address: home, positions: five });
    expect(answer.decision).not.toBe('verified');
    expect(answer.result).not.toBe('verified');
    expect(answer).toMatchObject({ decision: 'likely', certificate: null, evidence: { asserted: { positions: 5 }, recorded: { positions: 0 }, recorded_pings: 'no_consent' } });
    expect(answer.reasons.map((reason) => reason.code)).toContain('asserted_evidence_only');
    expect(answer.needed_for_verified.map((entry) => entry.code)).toEqual(expect.arrayContaining(['location_consent', 'recorded_pings', 'recorded_nights']));
    expect(answer.evidence.thresholds.verified).toMatchObject({ recorded_pings: 10, days: 4, nights: 3, span_hours: 72 });
    // More of them does not help: twelve perfect invented positions over six days are still only likely.
    const many = await post<Kyc>(key, '/v2/kyc/verify', { customer_id: 'inv-2', address: home, positions: history() });
    expect(many).toMatchObject({ decision: 'likely', result: 'not_verified', certificate: null });
    expect(many.provenance.confidence).toBeLessThanOrEqual(0.5);
    // Invented the lazy way (the same point, the same moment): a burst, for a person to review.
    const copies = Array.from({ length: 5 }, () => ({ ...ACCRA, accuracy_m: 5 }));
    const burst = await post<Kyc>(key, '/v2/kyc/verify', { customer_id: 'inv-3', address: home, positions: copies });
    expect(burst).toMatchObject({ decision: 'review', evidence: { bursts: { flagged: true, flags: ['same_timestamp', 'identical_coordinates'] } } });
  }, 30_000);

  it('recorded pings delivered as they happened verify, with a certificate signing the decision, the evidence and the fraud result; the same history posted at once goes to review', async () => {
    const key = await signUp(service, 'Recorded');
    const clock = service.runtime.clock;
    const realNow = clock.now.bind(clock);
    const spy = jest.spyOn(clock, 'now');
    try {
      spy.mockImplementation(() => new Date(realNow().getTime() - 7 * 86_400_000));
      expect((await service.request('POST', '/v2/consent/grant', { key, body: { customer_id: 'rec-1' } })).status).toBe(200);
      expect((await service.request('POST', '/v2/consent/grant', { key, body: { customer_id: 'rec-2' } })).status).toBe(200);
      // Each ping arrives a minute after the device took it.
      for (const ping of history()) {
        spy.mockImplementation(() => new Date(Date.parse(ping.recorded_at) + 60_000));
        expect(await post(key, '/v2/monitoring/pings', { pings: [{ customer_id: 'rec-1', ...ping }] })).toMatchObject({ accepted: 1 });
      }
    } finally {
      spy.mockRestore();
    }
    // A month posted in one go: arrived far faster than it was recorded.
    expect(await post(key, '/v2/monitoring/pings', { pings: history().map((ping) => ({ customer_id: 'rec-2', ...ping })) })).toMatchObject({ accepted: 12 });

    const verified = await post<Kyc & { certificate_id: string }>(key, '/v2/kyc/verify', { customer_id: 'rec-1', address: home });
    expect(verified).toMatchObject({ decision: 'verified', result: 'verified', needed_for_verified: [], evidence: { recorded_pings: 'used', recorded: { usable: 12, days: 6, nights: 6 }, bursts: { flagged: false } } });
    expect(verified.provenance).toMatchObject({ source: 'device_gps', confidence: verified.score });
    const { payload, protectedHeader } = await jwtVerify(verified.certificate!, createLocalJWKSet(await jwks()), { issuer: ISSUER, typ: 'address-verification+jwt', algorithms: ['EdDSA'] });
    expect(protectedHeader.typ).toBe('address-verification+jwt');
    expect(payload).toMatchObject({ jti: verified.certificate_id, decision: 'verified', score: verified.score, policy: 'adr-0030/v1', evidence: { recorded: { usable: 12 } }, fraud: { flags: [], degraded_checks: [] } });

    const posted = await post<Kyc>(key, '/v2/kyc/verify', { customer_id: 'rec-2', address: home });
    expect(posted).toMatchObject({ decision: 'review', certificate: null, evidence: { bursts: { flags: ['arrived_faster_than_recorded'] } } });
  }, 60_000);

  it('impossible travel yields review and no within certificate; a simulated fix fails', async () => {
    const key = await signUp(service, 'Traveller');
    const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
    const first = await post<Proximity>(key, '/v2/verify/proximity', { customer_id: 'trv-1', address: home, ...ACCRA, accuracy_m: 10, recorded_at: minutesAgo(10) });
    expect(first).toMatchObject({ decision: 'within', certificate: expect.any(String), certificate_withheld: null, evidence: { origin: 'asserted', mock_location: null } });
    const kumasiHome = hexCodeFromCell(latLngToCell(KUMASI.lat, KUMASI.lng, 13));
    // A minute later, 200 km away, at the address claimed there: geometrically within.
    const laterAt = minutesAgo(9);
    const later = await post<Proximity>(key, '/v2/verify/proximity', { customer_id: 'trv-1', address: kumasiHome, ...KUMASI, accuracy_m: 10, recorded_at: laterAt });
    expect(later.fraud_check.flags).toEqual(['velocity']);
    expect(later).toMatchObject({ decision: 'review', location_decision: 'within', certificate: null, certificate_withheld: expect.stringMatching(/review/) });
    expect(later.decision).not.toBe('within');
    expect(later.reasons[0]).toBe('fraud_velocity');
    // Its provenance was established when the device took the fix, not when it was sent.
    expect(later.provenance.verified_at).toBe(laterAt);

    const mocked = await post<Proximity>(key, '/v2/verify/proximity', { customer_id: 'trv-2', address: home, ...ACCRA, accuracy_m: 5, mock_location: true });
    expect(mocked).toMatchObject({ decision: 'failed', location_decision: 'within', certificate: null, reasons: ['mock_location_reported', 'within_radius'], provenance: { confidence: 0 } });
  }, 30_000);

  it("a city's provenance accuracy is at least its extent, whichever dataset placed its point", async () => {
    const key = await signUp(service, 'Cities');
    const osm = path.join(mkdtempSync(path.join(tmpdir(), 'evidence-osm-')), 'cities.osm');
    writeFileSync(
      osm,
      `<?xml version="1.0" encoding="UTF-8"?>\n<osm version="0.6">\n` +
        `  <node id="3000001" lat="${KUMASI.lat}" lon="${KUMASI.lng}">\n    <tag k="place" v="city"/>\n    <tag k="name" v="Kumasi"/>\n    <tag k="population" v="2069350"/>\n  </node>\n` +
        `  <node id="3000002" lat="5.8444" lon="-0.1751">\n    <tag k="place" v="town"/>\n    <tag k="name" v="Aburi"/>\n  </node>\n</osm>\n`,
    );
    await importOsm(new FileDatasetStore(path.join(service.dataDir, 'reference')), osm);
    const resolved = await eventually(async () => {
      const response = await service.request('GET', '/v2/address/resolve?address=Kumasi', { key });
      return response.status === 200 ? data<{ label: string; provenance: { accuracy_meters: number; verified_at: string } }>(response) : undefined;
    }, 10_000);
    expect(resolved.label).toBe('Kumasi');
    expect(resolved.provenance.accuracy_meters).toBeGreaterThanOrEqual(KUMASI_EXTENT_M);
    // Established when the dataset was imported, not now.
    expect(Date.parse(resolved.provenance.verified_at)).toBeLessThan(Date.now());
    const town = await data<{ provenance: { accuracy_meters: number } }>(await service.request('GET', '/v2/address/resolve?address=Aburi', { key }));
    expect(town.provenance.accuracy_meters).toBeGreaterThanOrEqual(1000);
    // A city is an area: a proximity check against it decides nothing, and signs nothing.
    const proximity = await post<Proximity>(key, '/v2/verify/proximity', { customer_id: 'city-1', address: 'Kumasi', ...KUMASI, accuracy_m: 5 });
    expect(proximity).toMatchObject({ decision: 'inconclusive', reasons: ['address_too_coarse'], certificate: null });
  }, 30_000);
});
