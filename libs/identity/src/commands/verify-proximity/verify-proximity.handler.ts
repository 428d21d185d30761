import { ADDRESS_RESOLVER, type AddressResolving } from '../../../../addressing/src/index.js';
import { CommandHandler } from '@nestjs/cqrs';
import { CLOCK, command, CONFIG, JsonLogger, PipelineCommand, PipelineHandler, type Clock, type Config } from '../../../../platform/src/index.js';
import { claimAddress } from '../../addresses/claimed-address.js';
import { PROXIMITY_CERTIFICATE_TYP, proximityCertificateClaims } from '../../domain/certificates.js';
import { fixTime } from '../../domain/identifiers.js';
import { fraudVerdict } from '../../domain/evidence.js';
import { assessProximity, devicePointProvenance, proximityEvidence, type DevicePosition, type ProximityOutcome } from '../../domain/proximity.js';
import { verificationDecider, verificationStream, type ProximityVerified, type VerificationCommand, type VerificationEvent, type VerificationState } from '../../domain/verification.js';
import { FRAUD_SIGNALS, type FraudSignals } from '../../fraud/fraud-signals.port.js';
import { IDENTITY_SIGNALS_READ_MODEL } from '../../public/identity-signals.read-model.js';
import { runFraudChecks } from '../../fraud/run-fraud-checks.js';
import { identifierHashes } from '../../hashing/identifier-hashes.js';
import { IdentityHashing } from '../../hashing/identity-hashing.js';
import { CertificateSigner } from '../../public/certificate-signer.js';
import { IdentityCodec, IdentitySealing } from '../../sealing/identity-sealing.js';

export type VerifyProximity = Extract<VerificationCommand, { type: 'RecordProximityVerification' }> & {
  account_id: string;
  customer_id: string;
  address: string;
  position: { lat: number; lng: number; accuracy_m: number; recorded_at?: string; mock_location?: boolean | null };
  device_id: string | null;
  phone: string | null;
  email: string | null;
  client_ip: string | null;
};

interface Deps {
  resolver: AddressResolving;
  hashing: IdentityHashing;
  signals: FraudSignals;
  signer: CertificateSigner;
  clock: Clock;
  config: Config;
  logger: JsonLogger;
  sealing: IdentitySealing;
}

/**
 * POST /v2/verify/proximity. Preparing it does the I/O: resolve the claimed
 * address, read the fraud signals (each on a deadline, failing open), judge
 * the proximity and sign the certificate; the decider records it in the
 * customer's verification stream.
 */
export const verifyProximity = command<VerifyProximity, VerificationState, VerificationEvent, Deps>({
  name: 'identity.verify-proximity',
  stream: (input) => verificationStream(input.account_id, input.customer_id),
  decider: verificationDecider,
  inject: { resolver: ADDRESS_RESOLVER, hashing: IdentityHashing, signals: FRAUD_SIGNALS, signer: CertificateSigner, clock: CLOCK, config: CONFIG, logger: JsonLogger, sealing: IdentitySealing },
  // The address, the fix and the certificate are stored sealed under the customer's data key (ADR 0054).
  codec: (deps) => new IdentityCodec(deps.sealing),
  prepare: async (input, _loaded, deps) => ({ ...input, verification: await prepareProximity(input, deps) }),
  // Another verification of the same customer landed first; this one is its own record, decided again as it was.
  onConflict: { retry: 3 },
  // Soft: the answer does not read the signals. Waiting lets the caller's next verification see this
  // one (velocity, bulk counts); a late projection must not fail a verification that is stored.
  awaits: [{ readModel: IDENTITY_SIGNALS_READ_MODEL.name, soft: true }],
});

export class VerifyProximityCommand extends PipelineCommand<VerifyProximity, VerificationState, VerificationEvent> {}

@CommandHandler(VerifyProximityCommand)
export class VerifyProximityHandler extends PipelineHandler<VerifyProximity, VerificationState, VerificationEvent, Deps> {
  protected readonly definition = verifyProximity;
}

async function prepareProximity(input: VerifyProximity, deps: Deps): Promise<ProximityVerified['data']> {
  const now = deps.clock.now();
  const mock_location = input.position.mock_location ?? null;
  const device: DevicePosition = { lat: input.position.lat, lng: input.position.lng, accuracy_m: input.position.accuracy_m, recorded_at: fixTime(input.position.recorded_at, now) };
  const address = claimAddress(deps.resolver, input.address);
  const assessment = assessProximity(address, device);
  const signals = identifierHashes(deps.hashing, input);
  const fraud_check = await runFraudChecks(
    deps.signals,
    { accountId: input.account_id, customerId: input.customer_id, signals, observations: [{ lat: device.lat, lng: device.lng, accuracy_m: device.accuracy_m, observed_at: device.recorded_at }], now },
    { logger: deps.logger },
  );
  // Never `within` beside a fraud flag (docs/adr/0030): a signal sends the decision to review, the client's own mock flag fails it.
  const verdict = fraudVerdict(fraud_check, mock_location === true ? 1 : 0);
  const decision: ProximityOutcome = verdict.outcome === 'none' ? assessment.decision : verdict.outcome;
  const reasons = verdict.outcome === 'none' ? assessment.reasons : [...verdict.reasons.map((reason) => reason.code), ...assessment.reasons];
  const provenance = devicePointProvenance({ accuracy_m: device.accuracy_m, recorded_at: device.recorded_at, mock_location });
  const evidence = proximityEvidence({ ...device, mock_location }, assessment.radius_m);
  const subject = deps.hashing.subject(input.account_id, input.customer_id);
  let certificate: ProximityVerified['data']['certificate'] = null;
  if (decision === 'within' || decision === 'outside') {
    const claims = proximityCertificateClaims({
      issuer: deps.config.publicBaseUrl,
      subject,
      jti: input.verification_id,
      now,
      decision,
      distance_m: assessment.distance_m,
      radius_m: assessment.radius_m,
      address_code: address.code,
      observed_at: device.recorded_at,
      provenance,
      fraud_check,
      evidence,
    });
    const { token, kid } = await deps.signer.sign(claims, PROXIMITY_CERTIFICATE_TYP);
    certificate = { jti: claims.jti, kid, token, iat: claims.iat, exp: claims.exp };
  }
  return {
    verification_id: input.verification_id,
    account_id: input.account_id,
    customer_id: input.customer_id,
    subject,
    address,
    device: { ...device, mock_location },
    decision,
    location_decision: assessment.decision,
    distance_m: assessment.distance_m,
    radius_m: assessment.radius_m,
    reasons,
    evidence,
    provenance,
    fraud_check,
    signals,
    certificate,
    verified_at: now.toISOString(),
  };
}
