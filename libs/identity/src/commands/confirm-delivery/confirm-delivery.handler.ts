import { ADDRESS_RESOLVER, hexCodeForPoint, type AddressResolving } from '../../../../addressing/src/index.js';
import { CommandHandler } from '@nestjs/cqrs';
import { CLOCK, command, CONFIG, PipelineCommand, PipelineHandler, type Clock, type Config } from '../../../../platform/src/index.js';
import { claimAddress } from '../../addresses/claimed-address.js';
import { DELIVERY_RECEIPT_TYP, deliveryReceiptClaims } from '../../domain/certificates.js';
import { deliveryDecider, deliveryStream, type ConfirmDelivery, type DeliveryConfirmed, type DeliveryEvent, type DeliveryState } from '../../domain/delivery.js';
import { fixTime } from '../../domain/identifiers.js';
import { UNKNOWN_ACCURACY_M } from '../../domain/kyc.js';
import { assessProximity, devicePointProvenance } from '../../domain/proximity.js';
import { IdentityHashing } from '../../hashing/identity-hashing.js';
import { CertificateSigner } from '../../public/certificate-signer.js';
import { IdentityCodec, IdentitySealing } from '../../sealing/identity-sealing.js';

export type ConfirmDeliveryInput = ConfirmDelivery & {
  receipt_id: string;
  customer_id: string | null;
  courier: { lat: number; lng: number; accuracy_m: number | null; recorded_at?: string; mock_location?: boolean | null };
  device_id: string | null;
  address: string | null;
  recipient_name: string | null;
  photo_sha256: string | null;
};

interface Deps {
  resolver: AddressResolving;
  hashing: IdentityHashing;
  signer: CertificateSigner;
  clock: Clock;
  config: Config;
  sealing: IdentitySealing;
}

/**
 * POST /v2/pod/confirm. The receipt is signed only when the stream shows the
 * delivery unconfirmed; the decider records the first one and nothing after.
 */
export const confirmDelivery = command<ConfirmDeliveryInput, DeliveryState, DeliveryEvent, Deps>({
  name: 'identity.confirm-delivery',
  stream: (input) => deliveryStream(input.account_id, input.delivery_id),
  decider: deliveryDecider,
  inject: { resolver: ADDRESS_RESOLVER, hashing: IdentityHashing, signer: CertificateSigner, clock: CLOCK, config: CONFIG, sealing: IdentitySealing },
  // With a customer, the courier's fix, its code, the expected address, the receipt and the recipient are stored
  // sealed under the customer's data key (ADR 0054); a repeated confirmation after an erasure finds them gone.
  codec: (deps) => new IdentityCodec(deps.sealing),
  prepare: async (input, loaded, deps) => (loaded.state.status === 'confirmed' ? input : { ...input, confirmation: await prepareReceipt(input, deps) }),
  // Idempotent: two first confirmations at once, the loser's retry finds the winner's receipt and answers it.
  onConflict: { retry: 3 },
});

export class ConfirmDeliveryCommand extends PipelineCommand<ConfirmDeliveryInput, DeliveryState, DeliveryEvent> {}

@CommandHandler(ConfirmDeliveryCommand)
export class ConfirmDeliveryHandler extends PipelineHandler<ConfirmDeliveryInput, DeliveryState, DeliveryEvent, Deps> {
  protected readonly definition = confirmDelivery;
}

async function prepareReceipt(input: ConfirmDeliveryInput, deps: Deps): Promise<DeliveryConfirmed['data']> {
  const now = deps.clock.now();
  const recorded_at = fixTime(input.courier.recorded_at, now);
  const accuracy = input.courier.accuracy_m ?? UNKNOWN_ACCURACY_M;
  const claimed = input.address === null ? null : claimAddress(deps.resolver, input.address);
  const assessed = claimed === null ? null : assessProximity(claimed, { lat: input.courier.lat, lng: input.courier.lng, accuracy_m: accuracy });
  const address = claimed && assessed ? { code: claimed.code, distance_m: assessed.distance_m, radius_m: assessed.radius_m, decision: assessed.decision } : null;
  const location_code = hexCodeForPoint(input.courier.lat, input.courier.lng);
  const provenance = devicePointProvenance({ accuracy_m: input.courier.accuracy_m, recorded_at, mock_location: input.courier.mock_location });
  const claims = deliveryReceiptClaims({
    issuer: deps.config.publicBaseUrl,
    subject: deps.hashing.deliverySubject(input.account_id, input.delivery_id),
    jti: input.receipt_id,
    now,
    delivery_id: input.delivery_id,
    delivered_at: recorded_at,
    location_code,
    provenance,
    address,
    recipient_name: input.recipient_name,
    photo_sha256: input.photo_sha256,
  });
  const { token, kid } = await deps.signer.sign(claims, DELIVERY_RECEIPT_TYP);
  return {
    account_id: input.account_id,
    delivery_id: input.delivery_id,
    customer_id: input.customer_id,
    receipt_id: input.receipt_id,
    kid,
    receipt: token,
    courier: {
      lat: input.courier.lat,
      lng: input.courier.lng,
      accuracy_m: input.courier.accuracy_m,
      recorded_at,
      device_hash: input.device_id === null ? null : deps.hashing.device(input.account_id, input.device_id),
    },
    location_code,
    address,
    recipient_name: input.recipient_name,
    photo_sha256: input.photo_sha256,
    provenance,
    confirmed_at: now.toISOString(),
  };
}
