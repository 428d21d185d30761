import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { calculateJwkThumbprint, exportJWK } from 'jose';
import { consentStream, locationStream, monitoringEventTypes } from '../libs/monitoring/src/index.js';
import { MonitoringCustomerLocations, type LocationOpener } from '../libs/monitoring/src/testing/location-streams.js';
import {
  ADDRESS_CERTIFICATE_TYP,
  addressCertificateClaims,
  assessAddressEvidence,
  MAX_RECORDED_PINGS,
  RECORDED_PINGS_WINDOW_MS,
  summarizeFraudCheck,
  type EvidencePosition,
} from '../libs/identity/src/index.js';
import { CertificateSigner, kycProvenance } from '../libs/identity/src/testing/benchmarked.js';
import { EmbeddedEventStore, EmbeddedReadStore, EventRegistry, type NewEvent } from '../libs/platform/src/index.js';
import { toRow, type Check, type Section } from './report.js';

/**
 * Issue 26, "Done means": a KYC verification over 30 days of recorded pings
 * (2,880: one every 15 minutes) against reading those pings raw from the
 * embedded event store, in the same run.
 *
 * - baseline: `readStream` of the customer's location stream, every event as stored.
 * - the CustomerLocations port's `recordedPings` (the 30-day window, opened and upcast, newest first).
 * - a verification: the port's read, the evidence ladder (`assessAddressEvidence`:
 *   tallies by origin, bursts, thresholds), the provenance, and the certificate
 *   a `verified` decision gets (claims + Ed25519 JWS).
 *
 * Opening: each ping is sealed as base64 JSON here (the port's int-spec
 * opener), not AES-GCM under the customer's data key; the per-ping cost of real
 * sealing is in `npm run bench -- pings`. Fraud-signal reads (a read-model
 * lookup each) and the append are not included.
 */
export interface IdentityKycBenchOptions {
  verifications: number;
  rounds: number;
  progress: (line: string) => void;
}

const PINGS = 2880;
const ACCOUNT = 'acct_bench';
const CUSTOMER = 'cust-30-days';
const HOME = { lat: 5.6037, lng: -0.187 };

const opener: LocationOpener = {
  open: async (event) => {
    const data = event.data as { sealed: string };
    return { type: event.type, data: { ...data, ...(JSON.parse(Buffer.from(data.sealed, 'base64').toString('utf8')) as object) } } as never;
  },
};

export async function runIdentityKycBench(options: IdentityKycBenchOptions): Promise<Section> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-identity-kyc-'));
  const events = await EmbeddedEventStore.open(path.join(dir, 'events'));
  const readStore = await EmbeddedReadStore.open(path.join(dir, 'read-models'));
  const checks: Check[] = [];
  try {
    const now = new Date();
    const start = now.getTime() - 30 * 86_400_000 + 60_000;
    await events.append(
      consentStream(ACCOUNT, CUSTOMER),
      [{ type: 'ConsentGranted', data: { account_id: ACCOUNT, customer_id: CUSTOMER, purpose: 'loan_collections', scope: ['location'], granted_at: new Date(start - 3_600_000).toISOString() }, metadata: { schema_version: 1 } }],
      'no_stream',
    );
    const batch: NewEvent[] = [];
    for (let index = 0; index < PINGS; index++) {
      const recorded_at = new Date(start + index * 15 * 60_000).toISOString();
      // At home, jittering by a few metres, each ping received a minute after it was taken.
      const ping = { lat: HOME.lat + ((index * 37) % 50) * 1e-6, lng: HOME.lng - ((index * 53) % 50) * 1e-6, accuracy_m: 8 + (index % 20), device_id: null, received_at: new Date(Date.parse(recorded_at) + 60_000).toISOString() };
      batch.push({
        type: 'PingRecorded',
        data: { account_id: ACCOUNT, customer_id: CUSTOMER, key_id: 'k', ping_id: `p-${index}`, recorded_at, sealed: Buffer.from(JSON.stringify(ping)).toString('base64') },
        metadata: { schema_version: 1 },
      });
    }
    let revision: bigint | 'no_stream' = 'no_stream';
    for (let offset = 0; offset < batch.length; offset += 500) {
      const appended = await events.append(locationStream(ACCOUNT, CUSTOMER), batch.slice(offset, offset + 500), revision);
      revision = appended.nextExpectedRevision;
    }
    const port = new MonitoringCustomerLocations(events, new EventRegistry().register(...monitoringEventTypes), readStore, opener, { of: (account, customer) => `${account}:${customer}` });
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const kid = await calculateJwkThumbprint(await exportJWK(publicKey));
    const signer = new CertificateSigner({ active: () => ({ kid, privateKey }) });
    const fraud = summarizeFraudCheck({ velocity: { status: 'clear', detail: '' }, ip_bulk: { status: 'clear', detail: '' }, device_bulk: { status: 'not_applicable', detail: '' }, synthetic_identity: { status: 'not_applicable', detail: '' } });
    const claim = { lat: HOME.lat, lng: HOME.lng, accuracy_m: 4 };
    const since = new Date(now.getTime() - RECORDED_PINGS_WINDOW_MS);

    let lastDecision = '';
    let lastUsable = 0;
    const verify = async () => {
      const found = await port.recordedPings(ACCOUNT, CUSTOMER, since, MAX_RECORDED_PINGS);
      if (found.consent !== 'granted') throw new Error('consent should be granted');
      const evidence: EvidencePosition[] = found.pings.map((ping) => ({ lat: ping.lat, lng: ping.lng, accuracy_m: ping.accuracy_m, recorded_at: ping.recorded_at, received_at: ping.received_at ?? null, source: 'recorded_ping' }));
      const assessment = assessAddressEvidence(claim, evidence, 'used', fraud);
      const provenance = kycProvenance(assessment, 'used', now);
      if (assessment.decision === 'verified' && assessment.score !== null) {
        const claims = addressCertificateClaims({ issuer: 'https://bench.example', subject: 'sub_bench', jti: 'vrf_bench', now, score: assessment.score, radius_m: assessment.radius_m, address_code: '6Q3HQKQ4ZA', evidence: assessment.evidence, provenance, fraud_check: fraud });
        await signer.sign(claims, ADDRESS_CERTIFICATE_TYP);
      }
      lastDecision = assessment.decision;
      lastUsable = assessment.evidence.recorded?.usable ?? 0;
    };
    type Timed = Awaited<ReturnType<typeof repeat>>;
    const samples: Record<'raw' | 'port' | 'verify', Timed[]> = { raw: [], port: [], verify: [] };
    let rawCount = 0;
    for (let round = 0; round < options.rounds; round++) {
      samples.raw.push(await repeat(options.verifications, async () => {
        rawCount = (await events.readStream(locationStream(ACCOUNT, CUSTOMER))).length;
      }));
      samples.port.push(await repeat(options.verifications, async () => {
        await port.recordedPings(ACCOUNT, CUSTOMER, since, MAX_RECORDED_PINGS);
      }));
      samples.verify.push(await repeat(options.verifications, verify));
      options.progress(`identity-kyc round ${round + 1}/${options.rounds} done`);
    }
    checks.push({ name: 'the raw read returns every stored ping', ok: rawCount === PINGS, detail: `${rawCount} of ${PINGS} events` });
    checks.push({ name: 'the verification over 30 days of recorded pings is verified', ok: lastDecision === 'verified' && lastUsable === PINGS, detail: `decision ${lastDecision} on ${lastUsable} usable recorded pings` });
    const raw = toRow(`readStream of the customer's ${PINGS} stored pings (raw)`, 'baseline', samples.raw);
    const rows = [
      raw,
      toRow('CustomerLocations.recordedPings: 30-day window, opened, upcast, newest first', 'ours', samples.port, raw),
      toRow('KYC verification: port read + evidence ladder + provenance + signed certificate', 'ours', samples.verify, raw),
    ];
    return {
      id: 'identity-kyc',
      title: `Identity: a KYC verification over 30 days of recorded pings (${PINGS}) vs reading them raw from the embedded store (one at a time; ratio = row ÷ baseline)`,
      unit: 'verification',
      settings: { pings: PINGS, verifications_per_round: options.verifications, rounds: options.rounds },
      rows,
      checks,
    };
  } finally {
    await events.close?.();
    await readStore.close?.();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function repeat(times: number, operation: () => Promise<unknown>): Promise<{ ops: number; seconds: number; latenciesMs: number[] }> {
  const latenciesMs: number[] = [];
  const started = performance.now();
  for (let index = 0; index < times; index++) {
    const began = performance.now();
    await operation();
    latenciesMs.push(performance.now() - began);
  }
  return { ops: times, seconds: (performance.now() - started) / 1000, latenciesMs };
}
