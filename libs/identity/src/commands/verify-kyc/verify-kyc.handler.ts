import { VerifyKycCommand, type VerifyKyc } from '../../public/verify-kyc.command.js';
import { ADDRESS_RESOLVER, type AddressResolving } from '../../../../addressing/src/index.js';
import { CommandHandler } from '@nestjs/cqrs';
import { CLOCK, command, CONFIG, JsonLogger, PipelineHandler, type Clock, type Config } from '../../../../platform/src/index.js';
import { claimAddress } from '../../addresses/claimed-address.js';
import { fixTime } from '../../domain/identifiers.js';
import { ADDRESS_CERTIFICATE_TYP, addressCertificateClaims } from '../../domain/certificates.js';
import { EVIDENCE_THRESHOLDS } from '../../domain/evidence.js';
import { assessAddressEvidence, MAX_RECORDED_PINGS, RECORDED_PINGS_WINDOW_MS, UNKNOWN_ACCURACY_M, type AddressAssessment, type EvidencePosition, type EvidenceSummary } from '../../domain/kyc.js';
import type { Provenance } from '../../../../addressing/src/index.js';
import { CertificateSigner } from '../../public/certificate-signer.js';
import { verificationDecider, verificationStream, type AddressVerified, type VerificationEvent, type VerificationState } from '../../domain/verification.js';
import { LOCATION_EVIDENCE, type LocationEvidence } from '../../evidence/location-evidence.port.js';
import { FRAUD_SIGNALS, type FraudSignals } from '../../fraud/fraud-signals.port.js';
import { IDENTITY_SIGNALS_READ_MODEL } from '../../public/identity-signals.read-model.js';
import { runFraudChecks } from '../../fraud/run-fraud-checks.js';
import { identifierHashes } from '../../hashing/identifier-hashes.js';
import { IdentityHashing } from '../../hashing/identity-hashing.js';
import { IdentityCodec, IdentitySealing } from '../../sealing/identity-sealing.js';

/** Recorded pings are evidence, not a precondition: a slow read of them is given up and said so. */
export const EVIDENCE_DEADLINE_MS = 2000;
/** Provider of a KYC verification's point: the caller's device positions, and the recorded pings when used. */
export const KYC_PROVIDER = 'caller device positions';



interface Deps {
  resolver: AddressResolving;
  hashing: IdentityHashing;
  evidence: LocationEvidence;
  signals: FraudSignals;
  signer: CertificateSigner;
  clock: Clock;
  config: Config;
  logger: JsonLogger;
  sealing: IdentitySealing;
}

/**
 * POST /v2/kyc/verify. Preparing it gathers the evidence (the positions sent,
 * the recorded pings where consent allows), judges it and runs the fraud
 * checks; the decider records the verification in the customer's stream.
 */
export const verifyKyc = command<VerifyKyc, VerificationState, VerificationEvent, Deps>({
  name: 'identity.verify-kyc',
  stream: (input) => verificationStream(input.account_id, input.customer_id),
  decider: verificationDecider,
  inject: { resolver: ADDRESS_RESOLVER, hashing: IdentityHashing, evidence: LOCATION_EVIDENCE, signals: FRAUD_SIGNALS, signer: CertificateSigner, clock: CLOCK, config: CONFIG, logger: JsonLogger, sealing: IdentitySealing },
  // The address, the positions sent and the certificate are stored sealed under the customer's data key (ADR 0054).
  codec: (deps) => new IdentityCodec(deps.sealing),
  prepare: async (input, _loaded, deps) => ({ ...input, verification: await prepareKyc(input, deps) }),
  // Another verification of the same customer landed first; this one is its own record, decided again as it was.
  onConflict: { retry: 3 },
  // Soft, as for proximity: the answer does not read the signals; later verifications do.
  awaits: [{ readModel: IDENTITY_SIGNALS_READ_MODEL.name, soft: true }],
});

@CommandHandler(VerifyKycCommand)
export class VerifyKycHandler extends PipelineHandler<VerifyKyc, VerificationState, VerificationEvent, Deps> {
  protected readonly definition = verifyKyc;
}

async function prepareKyc(input: VerifyKyc, deps: Deps): Promise<AddressVerified['data']> {
  const now = deps.clock.now();
  const positions = input.positions.map((position, index) => ({
    lat: position.lat,
    lng: position.lng,
    accuracy_m: position.accuracy_m,
    recorded_at: fixTime(position.recorded_at, now, `positions[${index}].recorded_at`),
    ...(position.mock_location === undefined || position.mock_location === null ? {} : { mock_location: position.mock_location }),
  }));
  const address = claimAddress(deps.resolver, input.address);
  const signals = identifierHashes(deps.hashing, input);
  // The positions sent are the request's own observations (velocity against earlier verifications);
  // recorded pings are judged among themselves, in order, by the burst checks.
  const [recorded, fraud_check] = await Promise.all([
    input.use_recorded_pings ? recordedPings(input, now, deps) : Promise.resolve({ status: 'not_requested' as const, positions: [] }),
    runFraudChecks(
      deps.signals,
      {
        accountId: input.account_id,
        customerId: input.customer_id,
        signals,
        observations: positions.map((position) => ({ lat: position.lat, lng: position.lng, accuracy_m: position.accuracy_m ?? UNKNOWN_ACCURACY_M, observed_at: position.recorded_at })),
        now,
      },
      { logger: deps.logger },
    ),
  ]);
  const evidence: EvidencePosition[] = [...positions.map((position) => ({ ...position, source: 'request' as const })), ...recorded.positions];
  const assessment = assessAddressEvidence(address, evidence, recorded.status, fraud_check);
  const provenance = kycProvenance(assessment, recorded.status, now);
  let certificate: AddressVerified['data']['certificate'] = null;
  if (assessment.decision === 'verified' && assessment.score !== null) {
    const claims = addressCertificateClaims({
      issuer: deps.config.publicBaseUrl,
      subject: deps.hashing.subject(input.account_id, input.customer_id),
      jti: input.verification_id,
      now,
      score: assessment.score,
      radius_m: assessment.radius_m,
      address_code: address.code,
      evidence: assessment.evidence,
      provenance,
      fraud_check,
    });
    const { token, kid } = await deps.signer.sign(claims, ADDRESS_CERTIFICATE_TYP);
    certificate = { jti: claims.jti, kid, token, iat: claims.iat, exp: claims.exp };
  }
  return {
    verification_id: input.verification_id,
    account_id: input.account_id,
    customer_id: input.customer_id,
    address,
    result: assessment.result,
    decision: assessment.decision,
    needed_for_verified: assessment.needed_for_verified,
    score: assessment.score,
    radius_m: assessment.radius_m,
    reasons: assessment.reasons,
    evidence: assessment.evidence,
    positions,
    provenance,
    fraud_check,
    signals,
    certificate,
    verified_at: now.toISOString(),
  };
}

/**
 * The point a KYC verification establishes is the claimed address, as the
 * customer's (docs/adr/0030, "KYC"): from device positions, as far as the
 * zone reaches; confidence is the agreement (the score) weighed by the amount
 * of recorded evidence (half for asserted positions alone, whole at the
 * verified threshold of recorded pings); established by this verification.
 */
export function kycProvenance(assessment: Pick<AddressAssessment, 'score' | 'decision' | 'radius_m' | 'evidence'>, recorded: EvidenceSummary['recorded_pings'], now: Date): Provenance {
  const amount = Math.min(1, (assessment.evidence.recorded?.usable ?? 0) / EVIDENCE_THRESHOLDS.verified.recorded_pings);
  const agreement = assessment.decision === 'review' ? 0 : (assessment.score ?? 0);
  return {
    source: 'device_gps',
    provider: recorded === 'used' ? `${KYC_PROVIDER} and recorded pings` : KYC_PROVIDER,
    accuracy_meters: assessment.radius_m,
    confidence: Math.round(agreement * (assessment.decision === 'verified' ? 1 : 0.5 + 0.5 * amount) * 100) / 100,
    verified_at: now.toISOString(),
  };
}

async function recordedPings(input: VerifyKyc, now: Date, deps: Deps): Promise<{ status: EvidenceSummary['recorded_pings']; positions: EvidencePosition[] }> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const found = await Promise.race([
      deps.evidence.recordedPings(input.account_id, input.customer_id, new Date(now.getTime() - RECORDED_PINGS_WINDOW_MS), MAX_RECORDED_PINGS),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${EVIDENCE_DEADLINE_MS} ms`)), EVIDENCE_DEADLINE_MS);
      }),
    ]);
    if (found.consent === 'not_granted') return { status: 'no_consent', positions: [] };
    if (found.pings.length === 0) return { status: 'none_recorded', positions: [] };
    return { status: 'used', positions: found.pings.map((ping) => ({ lat: ping.lat, lng: ping.lng, accuracy_m: ping.accuracy_m, recorded_at: ping.recorded_at, received_at: ping.received_at ?? null, mock_location: ping.mock_location ?? null, source: 'recorded_ping' as const })) };
  } catch (error) {
    deps.logger.warn({ msg: 'recorded pings could not be read for a KYC verification', err: error instanceof Error ? error.message : String(error) });
    return { status: 'unavailable', positions: [] };
  } finally {
    clearTimeout(timer);
  }
}
