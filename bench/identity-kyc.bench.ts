import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { calculateJwkThumbprint, exportJWK } from 'jose';
import { eventRegistry } from '../apps/shared/runtime.js';
import { consentStream, locationStream, type Ping, type PingRecorded } from '../libs/monitoring/src/index.js';
import { CustomerPseudonyms } from '../libs/monitoring/src/testing/benchmarked.js';
import { LocationSealing, MonitoringCustomerLocations } from '../libs/monitoring/src/testing/location-streams.js';
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
import { EmbeddedDataKeyVault, EmbeddedEventStore, EmbeddedReadStore, SealedFields, SecretBox, type NewEvent } from '../libs/platform/src/index.js';
import { toRow, type Check, type Sample, type Section } from './report.js';

/**
 * Issue 26, "Done means", and issue 49: a KYC verification over 30 days of
 * recorded pings (2,880: one every 15 minutes) against reading those same
 * pings raw, in the same run, paired (each iteration runs every case once,
 * the order turning), so a busy stretch of a shared machine weighs on all.
 *
 * The pings are stored as the service stores them: each PingRecorded's data
 * as `decidePings` makes it, sealed by monitoring's LocationSealing under the
 * customer's own data key (AES-256-GCM, from an embedded DataKeyVault), with
 * the customer's pseudonym, appended to the embedded (LMDB) event store.
 *
 * - reference: `readStream` of the customer's location stream alone (the
 *   events as stored, nothing opened).
 * - raw (the baseline, the floor a verification cannot go below): that read,
 *   the customer's key found once, and every ping's sealed value opened with
 *   it (`LocationSealing.openValue`: AES-256-GCM under the stream and type,
 *   then JSON.parse), its position and times kept. No consent, no window, no
 *   order, no upcasting, no judgement: what any use of the pings pays.
 * - the CustomerLocations port's `recordedPings` (consent read, the 30-day
 *   window, opened, upcast, newest first): what identity reads through.
 * - a verification: the port's read, the evidence ladder
 *   (`assessAddressEvidence`: tallies by origin, nights, bursts, thresholds),
 *   the provenance, and the certificate a `verified` decision gets (claims +
 *   Ed25519 JWS).
 *
 * Fraud-signal reads (a read-model lookup each; the velocity check reads
 * recorded pings only when the request sends positions, and this one sends
 * none) and the append of the verification are not included.
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
/** Issue 49: a verification costs at most this many times the raw read of its pings. */
const GOAL_RATIO = 2;

type Case = 'read' | 'raw' | 'port' | 'verify';

export async function runIdentityKycBench(options: IdentityKycBenchOptions): Promise<Section> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-identity-kyc-'));
  const events = await EmbeddedEventStore.open(path.join(dir, 'events'));
  const readStore = await EmbeddedReadStore.open(path.join(dir, 'read-models'));
  const vault = await EmbeddedDataKeyVault.open(dir, SecretBox.fromKey(randomBytes(32)));
  const checks: Check[] = [];
  try {
    const now = new Date();
    const start = now.getTime() - 30 * 86_400_000 + 60_000;
    const sealing = new LocationSealing(vault);
    const pseudonyms = CustomerPseudonyms.fromSecretBox(SecretBox.fromKey(randomBytes(32)));
    const stream = locationStream(ACCOUNT, CUSTOMER);
    await events.append(
      consentStream(ACCOUNT, CUSTOMER),
      [{ type: 'ConsentGranted', data: { account_id: ACCOUNT, customer_id: CUSTOMER, purpose: 'loan_collections', scope: ['location'], granted_at: new Date(start - 3_600_000).toISOString() }, metadata: { schema_version: 1 } }],
      'no_stream',
    );
    // The customer's key, created as the first sealed append creates it; the events sealed as LocationCodec seals them.
    const key = await sealing.keyFor(ACCOUNT, CUSTOMER);
    const pseudonym = pseudonyms.of(ACCOUNT, CUSTOMER);
    const batch: NewEvent[] = [];
    for (let index = 0; index < PINGS; index++) {
      const recorded_at = new Date(start + index * 15 * 60_000).toISOString();
      // At home, jittering by a few metres, each ping received a minute after it was taken.
      const ping: Ping = { lat: HOME.lat + ((index * 37) % 50) * 1e-6, lng: HOME.lng - ((index * 53) % 50) * 1e-6, accuracy_m: 8 + (index % 20), recorded_at, device_id: null };
      const data = { account_id: ACCOUNT, customer_id: CUSTOMER, ...ping, ping_id: sealing.pingId(key, ping), received_at: new Date(Date.parse(recorded_at) + 60_000).toISOString() };
      batch.push(sealing.seal(key, stream, { type: 'PingRecorded', data, metadata: { schema_version: 1 } }, pseudonym));
    }
    let revision: bigint | 'no_stream' = 'no_stream';
    for (let offset = 0; offset < batch.length; offset += 500) {
      const appended = await events.append(stream, batch.slice(offset, offset + 500), revision);
      revision = appended.nextExpectedRevision;
    }
    const port = new MonitoringCustomerLocations(events, eventRegistry(), readStore, sealing, pseudonyms);
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const kid = await calculateJwkThumbprint(await exportJWK(publicKey));
    const signer = new CertificateSigner({ active: () => ({ kid, privateKey }) });
    const fraud = summarizeFraudCheck({ velocity: { status: 'clear', detail: '' }, ip_bulk: { status: 'clear', detail: '' }, device_bulk: { status: 'not_applicable', detail: '' }, synthetic_identity: { status: 'not_applicable', detail: '' } });
    const claim = { lat: HOME.lat, lng: HOME.lng, accuracy_m: 4 };
    const since = new Date(now.getTime() - RECORDED_PINGS_WINDOW_MS);

    let readCount = 0;
    let rawCount = 0;
    let rawSealed = 0;
    let lastDecision = '';
    let lastUsable = 0;
    const operations: Record<Case, () => Promise<void>> = {
      read: async () => {
        readCount = (await events.readStream(stream)).length;
      },
      // The floor: the stored pings read and opened, what any use of them pays.
      raw: async () => {
        const stored = await events.readStream(stream);
        const found = await sealing.findKey(ACCOUNT, CUSTOMER, String(stored[0].data.key_id));
        if (!found) throw new Error('the customer key should be found');
        const positions: Array<{ lat: number; lng: number; accuracy_m: number | null; recorded_at: string; received_at: string }> = [];
        for (const event of stored) {
          if (event.type !== 'PingRecorded') continue;
          const { lat, lng, accuracy_m, received_at } = sealing.openValue<PingRecorded['data']>(found, SealedFields.context(event.streamName, event.type), String(event.data.sealed));
          positions.push({ lat, lng, accuracy_m, recorded_at: String(event.data.recorded_at), received_at });
        }
        rawCount = positions.length;
        rawSealed = stored.filter((event) => typeof event.data.sealed === 'string' && event.data.lat === undefined).length;
      },
      port: async () => {
        await port.recordedPings(ACCOUNT, CUSTOMER, since, MAX_RECORDED_PINGS);
      },
      verify: async () => {
        const found = await port.recordedPings(ACCOUNT, CUSTOMER, since, MAX_RECORDED_PINGS);
        if (found.consent !== 'granted') throw new Error('consent should be granted');
        const evidence: EvidencePosition[] = found.pings.map((ping) => ({ lat: ping.lat, lng: ping.lng, accuracy_m: ping.accuracy_m, recorded_at: ping.recorded_at, received_at: ping.received_at ?? null, mock_location: ping.mock_location ?? null, source: 'recorded_ping' }));
        const assessment = assessAddressEvidence(claim, evidence, 'used', fraud);
        const provenance = kycProvenance(assessment, 'used', now);
        if (assessment.decision === 'verified' && assessment.score !== null) {
          const claims = addressCertificateClaims({ issuer: 'https://bench.example', subject: 'sub_bench', jti: 'vrf_bench', now, score: assessment.score, radius_m: assessment.radius_m, address_code: '6Q3HQKQ4ZA', evidence: assessment.evidence, provenance, fraud_check: fraud });
          await signer.sign(claims, ADDRESS_CERTIFICATE_TYP);
        }
        lastDecision = assessment.decision;
        lastUsable = assessment.evidence.recorded?.usable ?? 0;
      },
    };
    const cases = Object.keys(operations) as Case[];
    // Warm every path (JIT, the key cache, LMDB's pages) before anything counts.
    for (let index = 0; index < 5; index++) for (const name of cases) await operations[name]();
    const samples: Record<Case, Sample[]> = { read: [], raw: [], port: [], verify: [] };
    for (let round = 0; round < options.rounds; round++) {
      const latencies: Record<Case, number[]> = { read: [], raw: [], port: [], verify: [] };
      const seconds: Record<Case, number> = { read: 0, raw: 0, port: 0, verify: 0 };
      for (let iteration = 0; iteration < options.verifications; iteration++) {
        // The order turns each iteration: no case always runs after the same one.
        for (let offset = 0; offset < cases.length; offset++) {
          const name = cases[(iteration + offset) % cases.length];
          const began = performance.now();
          await operations[name]();
          const took = performance.now() - began;
          latencies[name].push(took);
          seconds[name] += took / 1000;
        }
      }
      for (const name of cases) samples[name].push({ ops: options.verifications, seconds: seconds[name], latenciesMs: latencies[name] });
      options.progress(`identity-kyc round ${round + 1}/${options.rounds} done`);
    }
    checks.push({ name: 'the stored pings are sealed (no position in the clear)', ok: rawSealed === PINGS, detail: `${rawSealed} of ${PINGS} stored pings carry only a sealed value` });
    checks.push({ name: 'the raw read opens every stored ping', ok: rawCount === PINGS && readCount === PINGS, detail: `${rawCount} of ${PINGS} opened (${readCount} events read)` });
    checks.push({ name: 'the verification over 30 days of recorded pings is verified', ok: lastDecision === 'verified' && lastUsable === PINGS, detail: `decision ${lastDecision} on ${lastUsable} usable recorded pings` });
    const read = toRow(`readStream of the customer's ${PINGS} stored pings, none opened`, 'reference', samples.read);
    const raw = toRow(`raw: readStream + each ping's sealed value decrypted and parsed (key found once)`, 'baseline', samples.raw);
    const verify = toRow('KYC verification: port read + evidence ladder + provenance + signed certificate', 'ours', samples.verify, raw);
    const rows = [read, raw, toRow('CustomerLocations.recordedPings: consent, 30-day window, opened, upcast, newest first', 'ours', samples.port, raw), verify];
    const perVerification = raw.perSecond / verify.perSecond;
    checks.push({
      goal: true,
      name: `issue 49: a KYC verification over ${PINGS} sealed pings costs at most ${GOAL_RATIO}× reading and opening them raw`,
      ok: perVerification <= GOAL_RATIO,
      detail: `${perVerification.toFixed(2)}× the time per operation of the raw read (${(1000 / verify.perSecond).toFixed(1)} vs ${(1000 / raw.perSecond).toFixed(1)} ms); p50 ${verify.ratio?.p50?.toFixed(2)}× (${verify.p50Ms} vs ${raw.p50Ms} ms)`,
    });
    return {
      id: 'identity-kyc',
      title: `Identity: a KYC verification over 30 days of recorded pings (${PINGS}, sealed under the customer's key) vs reading and opening them raw (one at a time, paired; ratio = row ÷ baseline)`,
      unit: 'verification',
      settings: { pings: PINGS, verifications_per_round: options.verifications, rounds: options.rounds, sealing: 'AES-256-GCM under the customer data key (LocationSealing)' },
      rows,
      checks,
    };
  } finally {
    await events.close?.();
    await readStore.close?.();
    await vault.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

