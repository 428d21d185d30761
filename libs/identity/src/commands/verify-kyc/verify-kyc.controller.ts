import { randomUUID } from 'node:crypto';
import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { AccountOnly, callingAccount } from '../../../../platform/src/index.js';
import { checkPhone } from '../../domain/identifiers.js';
import { MIN_DAYS, MIN_POSITIONS, VERIFIED_SCORE } from '../../domain/kyc.js';
import type { AddressVerified } from '../../domain/verification.js';
import { VerifyKycCommand } from '../../public/verify-kyc.command.js';
import { VerifyKycRequest } from './verify-kyc.request.js';

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
      'Evidence: the `positions` you send and, when the customer granted location consent, the pings recorded for them in the last 30 days (only counts derived from them are kept). ' +
      `A position counts when accurate to 150 m; it is in the zone by the proximity rule. At least ${MIN_POSITIONS} usable positions on ${MIN_DAYS} different days are needed, else \`insufficient_evidence\`. ` +
      `Score: the share of positions in the zone, or with night positions (22:00-05:00 local solar time) 0.6 × that + 0.4 × the share of nights spent at the address; ${VERIFIED_SCORE} or more is \`verified\`. ` +
      'Every verification is kept for your audit and never touched by consent erasure. fraud_check as in POST /v2/verify/proximity.',
  })
  @ApiResponse({
    status: 200,
    description:
      '`{verification_id, customer_id, result (verified | not_verified | insufficient_evidence), score (0-1, null when insufficient), reasons [{code, message}], radius_m, address {input, code, input_kind, precision, label, lat, lng}, evidence {from_request, from_recorded_pings, recorded_pings (used | no_consent | none_recorded | not_requested | unavailable), usable, in_zone, share_in_zone, days_observed, nights_observed, nights_at_home}, provenance, fraud_check}`',
  })
  @ApiResponse({ status: 400, description: 'INVALID_PARAM naming the field (e.g. `positions[2].lat`); INVALID_CODE (field `address`)' })
  @ApiResponse({ status: 403, description: 'ACCOUNT_KEY_REQUIRED: customer ids belong to an account' })
  @ApiResponse({ status: 404, description: 'ADDRESS_NOT_FOUND: text that matches no place' })
  @ApiResponse({ status: 409, description: 'CONCURRENCY_CONFLICT: verifications of this customer kept racing; retry' })
  @ApiResponse({ status: 422, description: 'ADDRESS_NOT_CONVERTIBLE: a GhanaPostGPS address' })
  @ApiResponse({ status: 503, description: 'DATASET_NOT_LOADED: a text address before any place dataset is imported' })
  async verify(@Req() request: FastifyRequest, @Body() body: VerifyKycRequest) {
    const { events } = await this.commands.execute(
      new VerifyKycCommand({
      type: 'RecordAddressVerification',
      verification_id: `vrf_${randomUUID().replace(/-/g, '')}`,
      account_id: callingAccount(request),
      customer_id: body.customer_id,
      address: body.address,
      positions: (body.positions ?? []).map((position) => ({ lat: position.lat, lng: position.lng, accuracy_m: position.accuracy_m ?? null, recorded_at: position.recorded_at })),
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
    result: data.result,
    score: data.score,
    reasons: data.reasons,
    radius_m: data.radius_m,
    address: { input: address.input, code: address.code, input_kind: address.input_kind, precision: address.precision, label: address.label, lat: address.lat, lng: address.lng },
    evidence: data.evidence,
    provenance: data.provenance,
    fraud_check: data.fraud_check,
  };
}
