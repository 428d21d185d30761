import { generateKeyPairSync, sign, verify, webcrypto, type KeyObject } from 'node:crypto';
import { calculateJwkThumbprint, CompactSign, createLocalJWKSet, exportJWK, importPKCS8, jwtVerify } from 'jose';
import {
  devicePointProvenance,
  PROXIMITY_CERTIFICATE_TYP,
  proximityEvidence,
  proximityCertificateClaims,
  summarizeFraudCheck,
  type ServedJwk,
} from '../libs/identity/src/index.js';
import { CertificateSigner } from '../libs/identity/src/testing/benchmarked.js';
import { toRow, type Check, type Row, type Sample, type Section } from './report.js';

/**
 * Proximity certificates (issue 12, "Benchmark"): certificates signed per
 * second against raw Ed25519 signing of the same bytes, in the same run.
 *
 * - baseline: node:crypto `sign(null, bytes, key)` over the signing input of a
 *   real certificate (`header.payload`, ~1 KB): the signature alone.
 * - WebCrypto `subtle.sign` of the same bytes: jose signs through WebCrypto,
 *   whose asynchronous call (a hop to the thread pool) costs more than the
 *   Ed25519 arithmetic itself; this row shows how much of the gap is that.
 * - jose CompactSign of the same bytes: what the JOSE library adds to it.
 * - a certificate as the service issues one: claims built by the domain,
 *   JSON, base64url and the jose signature (CertificateSigner), without I/O.
 * - verification, as a relying party does it: jose `jwtVerify` with the JWKS
 *   (parse, header and claim checks, key lookup) against raw `verify`.
 *
 * One thread, one operation at a time: Ed25519 is CPU-bound, so the ratio is
 * the overhead per certificate; throughput across cores scales with the cores.
 */
export interface IdentityBenchOptions {
  seconds: number;
  rounds: number;
  progress: (line: string) => void;
}

export async function runIdentityBench(options: IdentityBenchOptions): Promise<Section> {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const jwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(jwk);
  const jwks = { keys: [{ ...jwk, kid, alg: 'EdDSA', use: 'sig' } as ServedJwk] };
  const signer = new CertificateSigner({ active: () => ({ kid, privateKey }) });
  const verifier = createLocalJWKSet(jwks);
  let serial = 0;
  const certificate = () => {
    const now = new Date();
    const fraud_check = summarizeFraudCheck({ velocity: { status: 'clear', detail: '' }, ip_bulk: { status: 'clear', detail: '' }, device_bulk: { status: 'not_applicable', detail: '' }, synthetic_identity: { status: 'clear', detail: '' } });
    return proximityCertificateClaims({
      issuer: 'https://api.example.com',
      subject: 'sub_Qk3n0eJ5b2yFv8WcX1pZr7TgLd4HsA6u',
      jti: `vrf_${(serial++).toString(16).padStart(32, '0')}`,
      now,
      decision: 'within',
      distance_m: 23.4,
      radius_m: 100,
      address_code: '6Q3HQKQ4ZA',
      observed_at: now.toISOString(),
      provenance: devicePointProvenance({ accuracy_m: 12, recorded_at: now.toISOString() }),
      fraud_check,
      evidence: proximityEvidence({ lat: 5.6037, lng: -0.187, accuracy_m: 12, recorded_at: now.toISOString(), mock_location: false }, 100),
    });
  };
  const sample = await signer.sign(certificate(), PROXIMITY_CERTIFICATE_TYP);
  const [header, payload] = sample.token.split('.');
  const signingInput = Buffer.from(`${header}.${payload}`);
  const payloadBytes = Buffer.from(payload, 'base64url');
  const rawSignature = sign(null, signingInput, privateKey);
  const cryptoKey = (await importPKCS8(privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(), 'EdDSA')) as webcrypto.CryptoKey;
  const tokens: string[] = [];

  const checks: Check[] = [];
  const samples: Record<string, Sample[]> = { raw: [], subtle: [], compact: [], certificate: [], rawVerify: [], jwtVerify: [] };
  for (let round = 0; round < options.rounds; round++) {
    samples.raw.push(await timed(options.seconds, () => sign(null, signingInput, privateKey)));
    samples.subtle.push(await timed(options.seconds, () => webcrypto.subtle.sign('Ed25519', cryptoKey, signingInput)));
    samples.compact.push(await timed(options.seconds, () => new CompactSign(payloadBytes).setProtectedHeader({ alg: 'EdDSA', kid, typ: PROXIMITY_CERTIFICATE_TYP }).sign(privateKey)));
    samples.certificate.push(
      await timed(options.seconds, async () => {
        const { token } = await signer.sign(certificate(), PROXIMITY_CERTIFICATE_TYP);
        if (tokens.length < 100) tokens.push(token);
      }),
    );
    samples.rawVerify.push(await timed(options.seconds, () => verify(null, signingInput, publicKey as KeyObject, rawSignature)));
    samples.jwtVerify.push(await timed(options.seconds, () => jwtVerify(sample.token, verifier, { typ: PROXIMITY_CERTIFICATE_TYP, algorithms: ['EdDSA'] })));
    options.progress(`identity round ${round + 1}/${options.rounds} done`);
  }

  const verified = await Promise.all(tokens.map((token) => jwtVerify(token, verifier, { typ: PROXIMITY_CERTIFICATE_TYP }).then(() => true, () => false)));
  checks.push({ name: 'certificates verify against the JWKS', ok: verified.length > 0 && verified.every(Boolean), detail: `${verified.filter(Boolean).length} of ${verified.length} sampled certificates verify with jose` });

  const rawRow = toRow(`raw Ed25519 sign, node:crypto (${signingInput.length} B signing input)`, 'baseline', samples.raw);
  const certificateRow = toRow('proximity certificate: claims + JSON + jose SignJWT (CertificateSigner)', 'ours', samples.certificate, rawRow);
  const rawVerifyRow = toRow('raw Ed25519 verify, node:crypto', 'baseline', samples.rawVerify);
  const rows: Row[] = [
    rawRow,
    toRow('WebCrypto subtle.sign of the same bytes (what jose calls)', 'reference', samples.subtle),
    toRow('jose CompactSign of the same bytes', 'ours', samples.compact, rawRow),
    certificateRow,
    rawVerifyRow,
    toRow('jose jwtVerify against the JWKS (what a relying party runs)', 'ours', samples.jwtVerify, rawVerifyRow),
  ];
  // WebCrypto alone runs at about 0.4× node's synchronous sign; a certificate should lose little beyond it.
  checks.push({
    name: 'certificates per second at least 0.3× raw Ed25519 signing',
    ok: (certificateRow.ratio?.perSecond ?? 0) >= 0.3,
    detail: `${certificateRow.perSecond.toFixed(0)}/s vs ${rawRow.perSecond.toFixed(0)}/s raw (${(certificateRow.ratio?.perSecond ?? 0).toFixed(2)}×)`,
    goal: true,
  });
  return {
    id: 'identity',
    title: 'Identity: proximity certificates signed per second vs raw Ed25519 signing, and jose verification vs raw verify (one thread; ratio = row ÷ the row named on the right)',
    unit: 'signature',
    settings: { seconds: options.seconds, rounds: options.rounds, certificate_bytes: sample.token.length },
    rows,
    checks,
  };
}

/** Runs `operation` back to back for `seconds`, each one awaited, with its latency. */
async function timed(seconds: number, operation: () => unknown): Promise<Sample> {
  const latenciesMs: number[] = [];
  const started = performance.now();
  const until = started + seconds * 1000;
  let ops = 0;
  for (let now = started; now < until; ) {
    const began = performance.now();
    await operation();
    now = performance.now();
    latenciesMs.push(now - began);
    ops++;
  }
  return { ops, seconds: (performance.now() - started) / 1000, latenciesMs };
}
