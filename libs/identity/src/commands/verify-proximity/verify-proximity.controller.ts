import { randomUUID } from 'node:crypto';
import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { AccountOnly, callingAccount } from '../../../../platform/src/index.js';
import { PROXIMITY_CERTIFICATE_TYP } from '../../domain/certificates.js';
import { checkPhone } from '../../domain/identifiers.js';
import { DEFAULT_RADIUS_M, MAX_RADIUS_M, POOR_FIX_M } from '../../domain/proximity.js';
import type { ProximityVerified } from '../../domain/verification.js';
import { VerifyProximityCommand } from './verify-proximity.handler.js';
import { VerifyProximityRequest } from './verify-proximity.request.js';
import { ApiAnswer, type AnswerOf } from '../../../../platform/src/index.js';
import { ProximityAnswerSchema } from './verify-proximity.answer.js';

/** interface.md, "Identity, consent, monitoring": POST /v2/verify/proximity, "result with provenance, signed certificate, fraud_check". */
@ApiTags('identity')
@ApiSecurity('api_key')
@Controller('v2/verify')
export class VerifyProximityController {
  constructor(private readonly commands: CommandBus) {}

  @Post('proximity')
  @HttpCode(200)
  @AccountOnly()
  @ApiOperation({
    summary: "Verify that a customer's device is near the address they claim, and get a signed certificate of it",
    description:
      `Decision: \`within\` when the fix is within the radius (${DEFAULT_RADIUS_M} m, or the claimed point's own accuracy when coarser) plus up to 50 m of the fix's accuracy; ` +
      `\`inconclusive\` when the fix is vaguer than ${POOR_FIX_M} m or the address is known only to more than ${MAX_RADIUS_M} m (an area, not an address), unless even the nearest reading is outside; \`outside\` otherwise. ` +
      'That is `location_decision`. `decision` is the same unless fraud changes it (docs/adr/0030): a fired fraud check (velocity: impossible travel against earlier verifications or the customer\'s pings recorded under consent; ip_bulk; device_bulk; synthetic_identity) makes it `review`, and a fix the client reported as simulated (`mock_location: true`) makes it `failed`; `reasons` then start with `fraud_<check>` or `mock_location_reported`. ' +
      'A skipped (degraded) check changes nothing: it neither flags nor clears. `evidence` says what the decision rests on: one `asserted` position, its accuracy, time and mock flag, and the thresholds applied. ' +
      'A certificate is signed for `within` and `outside` only (otherwise `certificate`, `certificate_id`, `kid`, `expires_at` are null and `certificate_withheld` says why): a compact JWS (`alg: EdDSA`, `typ: ' +
      PROXIMITY_CERTIFICATE_TYP +
      '`, the key in `kid`) of `{iss, sub (a keyed hash of your account and customer), iat, exp (1 year), jti (the verification_id), decision, distance_m, radius_m, address_code, observed_at, provenance, fraud: {flags, degraded_checks}, evidence}`; ' +
      'verify it offline with GET /v2/.well-known/jwks.json. `provenance.verified_at` is when the device took the fix. Every verification is kept for your audit; its address, fix and certificate are stored sealed under the customer\'s data key, which consent erasure destroys: the decision stays, they do not (docs/adr/0054). ' +
      'fraud_check: velocity, ip_bulk, device_bulk, synthetic_identity, each `clear`, `flagged`, `not_applicable` or `skipped`; a check whose signals cannot be read within 200 ms is skipped and listed in `degraded_checks` (`degraded: true` means fewer signals ran, not that nothing was found).',
  })
  @ApiAnswer(ProximityAnswerSchema, { requestExample: { customer_id: 'cust-8841', address: '0QP-PAN-VTWH', lat: 5.55041, lng: -0.21752, accuracy_m: 12, recorded_at: '2026-11-27T09:00:00Z', device_id: 'dev-a1b2c3', mock_location: false } })
  @ApiResponse({ status: 400, description: 'INVALID_PARAM naming the field; INVALID_CODE (field `address`) for a mistyped hex code' })
  @ApiResponse({ status: 403, description: 'ACCOUNT_KEY_REQUIRED: customer ids belong to an account' })
  @ApiResponse({ status: 404, description: 'ADDRESS_NOT_FOUND: text that matches no place' })
  @ApiResponse({ status: 409, description: 'CONCURRENCY_CONFLICT: verifications of this customer kept racing; retry' })
  @ApiResponse({ status: 422, description: 'ADDRESS_NOT_CONVERTIBLE: a GhanaPostGPS address' })
  @ApiResponse({ status: 503, description: 'DATASET_NOT_LOADED: a text address before any place dataset is imported (a hex code always works); SIGNING_KEY_UNAVAILABLE' })
  async verify(@Req() request: FastifyRequest, @Body() body: VerifyProximityRequest): Promise<AnswerOf<typeof ProximityAnswerSchema>> {
    const { events } = await this.commands.execute(
      new VerifyProximityCommand({
      type: 'RecordProximityVerification',
      verification_id: `vrf_${randomUUID().replace(/-/g, '')}`,
      account_id: callingAccount(request),
      customer_id: body.customer_id,
      address: body.address,
      position: { lat: body.lat, lng: body.lng, accuracy_m: body.accuracy_m, recorded_at: body.recorded_at, mock_location: body.mock_location ?? null },
      device_id: body.device_id ?? null,
      phone: body.phone === undefined || body.phone === null ? null : checkPhone(body.phone),
      email: body.email ?? null,
      client_ip: body.client_ip ?? request.ip,
      }),
    );
    const [verified] = events as ProximityVerified[];
    if (!verified) throw new Error('a verification with a fresh id recorded nothing');
    return proximityAnswer(verified.data);
  }
}

/** Why no certificate was signed: a certificate states where the device was, and these decisions state no such thing. */
function certificateWithheld(decision: ProximityVerified['data']['decision']): string {
  switch (decision) {
    case 'review':
      return 'a fraud signal needs a person to review it first';
    case 'failed':
      return 'the client reported the position as simulated';
    default:
      return 'the evidence decides nothing: no certificate for an inconclusive decision';
  }
}

export function proximityAnswer(data: ProximityVerified['data']) {
  const { address } = data;
  return {
    verification_id: data.verification_id,
    customer_id: data.customer_id,
    decision: data.decision,
    distance_m: data.distance_m,
    radius_m: data.radius_m,
    reasons: data.reasons,
    address: { input: address.input, code: address.code, input_kind: address.input_kind, precision: address.precision, label: address.label, lat: address.lat, lng: address.lng },
    observed_at: data.device.recorded_at,
    provenance: data.provenance,
    fraud_check: data.fraud_check,
    location_decision: data.location_decision ?? data.decision,
    evidence: data.evidence ?? null,
    certificate: data.certificate?.token ?? null,
    certificate_id: data.certificate?.jti ?? null,
    kid: data.certificate?.kid ?? null,
    expires_at: data.certificate ? new Date(data.certificate.exp * 1000).toISOString() : null,
    certificate_withheld: data.certificate ? null : certificateWithheld(data.decision),
  };
}
