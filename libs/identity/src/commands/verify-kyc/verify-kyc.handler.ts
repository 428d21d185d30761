import { VerifyKycCommand, type VerifyKyc } from '../../public/verify-kyc.command.js';
import { AddressResolver } from '../../../../addressing/src/index.js';
import { CommandHandler } from '@nestjs/cqrs';
import { CLOCK, command, JsonLogger, PipelineHandler, type Clock } from '../../../../platform/src/index.js';
import { claimAddress } from '../../addresses/claimed-address.js';
import { fixTime } from '../../domain/identifiers.js';
import { assessAddressEvidence, MAX_RECORDED_PINGS, RECORDED_PINGS_WINDOW_MS, UNKNOWN_ACCURACY_M, type EvidencePosition, type EvidenceSummary } from '../../domain/kyc.js';
import { devicePointProvenance } from '../../domain/proximity.js';
import { verificationDecider, verificationStream, type AddressVerified, type VerificationEvent, type VerificationState } from '../../domain/verification.js';
import { LOCATION_EVIDENCE, type LocationEvidence } from '../../evidence/location-evidence.port.js';
import { FRAUD_SIGNALS, type FraudSignals } from '../../fraud/fraud-signals.port.js';
import { IDENTITY_SIGNALS_READ_MODEL } from '../../public/identity-signals.read-model.js';
import { runFraudChecks } from '../../fraud/run-fraud-checks.js';
import { identifierHashes } from '../../hashing/identifier-hashes.js';
import { IdentityHashing } from '../../hashing/identity-hashing.js';

/** Recorded pings are evidence, not a precondition: a slow read of them is given up and said so. */
export const EVIDENCE_DEADLINE_MS = 2000;
/** Provider of a KYC verification's point: the caller's device positions, and the recorded pings when used. */
export const KYC_PROVIDER = 'caller device positions';



interface Deps {
  resolver: AddressResolver;
  hashing: IdentityHashing;
  evidence: LocationEvidence;
  signals: FraudSignals;
  clock: Clock;
  logger: JsonLogger;
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
  inject: { resolver: AddressResolver, hashing: IdentityHashing, evidence: LOCATION_EVIDENCE, signals: FRAUD_SIGNALS, clock: CLOCK, logger: JsonLogger },
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
  }));
  const address = claimAddress(deps.resolver, input.address);
  const recorded = input.use_recorded_pings ? await recordedPings(input, now, deps) : { status: 'not_requested' as const, positions: [] };
  const evidence: EvidencePosition[] = [...positions.map((position) => ({ ...position, source: 'request' as const })), ...recorded.positions];
  const assessment = assessAddressEvidence(address, evidence, recorded.status);
  const signals = identifierHashes(deps.hashing, input);
  const fraud_check = await runFraudChecks(
    deps.signals,
    {
      accountId: input.account_id,
      signals,
      observations: positions.map((position) => ({ lat: position.lat, lng: position.lng, accuracy_m: position.accuracy_m ?? UNKNOWN_ACCURACY_M, observed_at: position.recorded_at })),
      now,
    },
    { logger: deps.logger },
  );
  return {
    verification_id: input.verification_id,
    account_id: input.account_id,
    customer_id: input.customer_id,
    address,
    result: assessment.result,
    score: assessment.score,
    radius_m: assessment.radius_m,
    reasons: assessment.reasons,
    evidence: assessment.evidence,
    positions,
    // The point verified is the claimed address; how: from device GPS, as far as the zone reaches; as sure as the score.
    provenance: { ...devicePointProvenance(assessment.radius_m, now), provider: recorded.status === 'used' ? `${KYC_PROVIDER} and recorded pings` : KYC_PROVIDER, confidence: assessment.score ?? 0 },
    fraud_check,
    signals,
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
    return { status: 'used', positions: found.pings.map((ping) => ({ ...ping, source: 'recorded_ping' as const })) };
  } catch (error) {
    deps.logger.warn({ msg: 'recorded pings could not be read for a KYC verification', err: error instanceof Error ? error.message : String(error) });
    return { status: 'unavailable', positions: [] };
  } finally {
    clearTimeout(timer);
  }
}
