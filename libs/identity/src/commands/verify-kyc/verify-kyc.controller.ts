import { randomUUID } from 'node:crypto';
import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { AccountOnly, callingAccount } from '../../../../platform/src/index.js';
import { checkPhone } from '../../domain/identifiers.js';
import { EVIDENCE_THRESHOLDS } from '../../domain/evidence.js';
import { MIN_DAYS, MIN_POSITIONS, VERIFIED_SCORE } from '../../domain/kyc.js';
import { ADDRESS_CERTIFICATE_TYP, EVIDENCE_POLICY } from '../../domain/certificates.js';
import type { AddressVerified } from '../../domain/verification.js';
import { VerifyKycCommand } from '../../public/verify-kyc.command.js';
import { VerifyKycRequest } from './verify-kyc.request.js';
import { ApiAnswer, type AnswerOf } from '../../../../platform/src/index.js';
import { KycAnswerSchema } from './verify-kyc.answer.js';

/** interface.md, "Identity, consent, monitoring": POST /v2/kyc/verify, "result with fraud_check". */
@ApiTags('identity')
@ApiSecurity('api_key')
@Controller('v2/kyc')
export class VerifyKycController {
  constructor(private readonly commands: CommandBus) {}

  @Post('verify')
  @HttpCode(200)
  @AccountOnly()
  @ApiOperation({
    summary: "Verify a customer's claimed address from the evidence of where their device has been",
    description:
      'Evidence has an origin (docs/adr/0030): `recorded` pings, ingested earlier through POST /v2/monitoring/pings under the customer\'s granted location consent (the last 30 days; only counts derived from them are kept), and `asserted` positions, the `positions` you send now. ' +
      `A position counts when accurate to ${EVIDENCE_THRESHOLDS.usable_accuracy_m} m; it is in the zone by the proximity rule. ` +
      `Score: the share of positions in the zone, or with night positions (22:00-05:00 local solar time) 0.6 × that + 0.4 × the share of nights spent at the address. ` +
      '**Decision ladder** (`decision`), checked in this order: `failed` when the client reported a position as simulated (`mock_location`); `review` when a fraud check fired (velocity, ip_bulk, device_bulk, synthetic_identity) or the evidence has a burst ' +
      `(${EVIDENCE_THRESHOLDS.bursts.same_timestamp}+ positions with one timestamp, more than half on identical coordinates, recorded pings that arrived in less than half the time they cover, consecutive positions implying over 300 km/h); ` +
      `\`inconclusive\` with fewer than ${MIN_POSITIONS} usable positions on ${MIN_DAYS} days, or an address known only to more than 1 km; \`failed\` when the score is under ${VERIFIED_SCORE}; ` +
      `\`verified\` only when the recorded pings alone show at least ${EVIDENCE_THRESHOLDS.verified.recorded_pings} usable pings on ${EVIDENCE_THRESHOLDS.verified.days} days and ${EVIDENCE_THRESHOLDS.verified.nights} nights over ${EVIDENCE_THRESHOLDS.verified.span_hours} h, ` +
      `${EVIDENCE_THRESHOLDS.verified.share_in_zone} of them in the zone, most nights at the address, a median accuracy within ${EVIDENCE_THRESHOLDS.verified.median_accuracy_m} m, and every fraud check ran (not degraded); otherwise \`likely\`. ` +
      'Asserted positions alone are never `verified`: `needed_for_verified` lists what evidence would be (`{code, have, need, message}`). Machine-readable `reasons` say why. `result` is the decision in the older vocabulary (`verified` only when `decision` is; `insufficient_evidence` for `inconclusive`; `not_verified` otherwise). ' +
      `\`evidence\` summarises the evidence by origin (\`recorded\`, \`asserted\`: positions, usable, in_zone, days, nights, nights_at_home, span_hours, median_accuracy_m), the burst flags and the thresholds applied. ` +
      `A \`verified\` decision carries a \`certificate\`: a compact JWS (\`typ: ${ADDRESS_CERTIFICATE_TYP}\`) of \`{iss, sub, iat, exp, jti, decision, score, radius_m, address_code, evidence, policy: ${EVIDENCE_POLICY}, provenance, fraud}\`, verifiable with GET /v2/.well-known/jwks.json; no other decision is signed. ` +
      '`provenance.confidence` is the score weighed by the amount of recorded evidence. Every verification is kept for your audit; its address, positions and certificate are stored sealed under the customer\'s data key, which consent erasure destroys: the decision stays, they do not (docs/adr/0054). fraud_check as in POST /v2/verify/proximity.',
  })
  @ApiAnswer(KycAnswerSchema, { requestExample: { customer_id: 'cust-8841', address: '0QP-PAN-VTWH', positions: [{ lat: 5.55031, lng: -0.21739, accuracy_m: 12, recorded_at: '2026-11-25T22:40:00Z' }, { lat: 5.55027, lng: -0.21744, accuracy_m: 9, recorded_at: '2026-11-26T06:10:00Z' }] } })
  @ApiResponse({ status: 400, description: 'INVALID_PARAM naming the field (e.g. `positions[2].lat`); INVALID_CODE (field `address`)' })
  @ApiResponse({ status: 403, description: 'ACCOUNT_KEY_REQUIRED: customer ids belong to an account' })
  @ApiResponse({ status: 404, description: 'ADDRESS_NOT_FOUND: text that matches no place' })
  @ApiResponse({ status: 409, description: 'CONCURRENCY_CONFLICT: verifications of this customer kept racing; retry' })
  @ApiResponse({ status: 422, description: 'ADDRESS_NOT_CONVERTIBLE: a GhanaPostGPS address' })
  @ApiResponse({ status: 503, description: 'DATASET_NOT_LOADED: a text address before any place dataset is imported' })
  async verify(@Req() request: FastifyRequest, @Body() body: VerifyKycRequest): Promise<AnswerOf<typeof KycAnswerSchema>> {
    const { events } = await this.commands.execute(
      new VerifyKycCommand({
      type: 'RecordAddressVerification',
      verification_id: `vrf_${randomUUID().replace(/-/g, '')}`,
      account_id: callingAccount(request),
      customer_id: body.customer_id,
      address: body.address,
      positions: (body.positions ?? []).map((position) => ({ lat: position.lat, lng: position.lng, accuracy_m: position.accuracy_m ?? null, recorded_at: position.recorded_at, mock_location: position.mock_location ?? null })),
      use_recorded_pings: body.use_recorded_pings ?? true,
      device_id: body.device_id ?? null,
      phone: body.phone === undefined || body.phone === null ? null : checkPhone(body.phone),
      email: body.email ?? null,
      client_ip: body.client_ip ?? request.ip,
      }),
    );
    const [verified] = events as AddressVerified[];
    if (!verified) throw new Error('a verification with a fresh id recorded nothing');
    return kycAnswer(verified.data);
  }
}

export function kycAnswer(data: AddressVerified['data']) {
  const { address } = data;
  return {
    verification_id: data.verification_id,
    customer_id: data.customer_id,
    // Recorded before the ladder: the older result, said in its words.
    decision: data.decision ?? ({ verified: 'verified', not_verified: 'failed', insufficient_evidence: 'inconclusive' } as const)[data.result],
    result: data.result,
    score: data.score,
    reasons: data.reasons,
    needed_for_verified: data.needed_for_verified ?? [],
    radius_m: data.radius_m,
    address: { input: address.input, code: address.code, input_kind: address.input_kind, precision: address.precision, label: address.label, lat: address.lat, lng: address.lng },
    evidence: data.evidence,
    provenance: data.provenance,
    fraud_check: data.fraud_check,
    certificate: data.certificate?.token ?? null,
    certificate_id: data.certificate?.jti ?? null,
    kid: data.certificate?.kid ?? null,
    expires_at: data.certificate ? new Date(data.certificate.exp * 1000).toISOString() : null,
  };
}
