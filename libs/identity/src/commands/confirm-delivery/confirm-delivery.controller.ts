import { randomUUID } from 'node:crypto';
import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { AccountOnly, callingAccount } from '../../../../platform/src/index.js';
import { DELIVERY_RECEIPT_TYP } from '../../domain/certificates.js';
import type { DeliveryConfirmed } from '../../domain/delivery.js';
import { DeliveryErasedError } from '../../domain/errors.js';
import { ConfirmDeliveryCommand } from './confirm-delivery.handler.js';
import { ConfirmDeliveryRequest } from './confirm-delivery.request.js';
import { ApiAnswer, type AnswerOf } from '../../../../platform/src/index.js';
import { DeliveryReceiptSchema } from './confirm-delivery.answer.js';

/** interface.md, "Identity, consent, monitoring": POST /v2/pod/confirm, "signed receipt with provenance"; the delivery.confirmed event. */
@ApiTags('identity')
@ApiSecurity('api_key')
@Controller('v2/pod')
export class ConfirmDeliveryController {
  constructor(private readonly commands: CommandBus) {}

  @Post('confirm')
  @HttpCode(200)
  @AccountOnly()
  @ApiOperation({
    summary: 'Confirm a delivery and get a signed proof-of-delivery receipt',
    description:
      'The receipt is a compact JWS (`alg: EdDSA`, `typ: ' +
      DELIVERY_RECEIPT_TYP +
      '`) of `{iss, sub (a keyed hash of your account and the delivery), iat, exp (7 years), jti (receipt_id), delivery_id, delivered_at, location_code (hex code of the courier\'s position), provenance, ' +
      'address_code, distance_m, radius_m, decision (when `address` was given), recipient_name, photo_sha256}`; verify it offline with GET /v2/.well-known/jwks.json. ' +
      'Confirming the same delivery again answers the first receipt (`already_confirmed: true`) and changes nothing: never two receipts. ' +
      'With a `customer_id`, the courier\'s fix, its code, the address, the receipt and the recipient are stored sealed under the customer\'s data key (docs/adr/0054): once consent erasure destroyed it, confirming again answers 410 DELIVERY_ERASED. ' +
      'A first confirmation fires `delivery.confirmed` to a webhook subscribed to it: `{event, delivery_id, customer_id, receipt_id, receipt, kid, location_code, address_code, distance_m, decision, recipient_name, photo_sha256, timestamp}`.',
  })
  @ApiAnswer(DeliveryReceiptSchema, { requestExample: { delivery_id: 'dlv-20261127-0042', customer_id: 'cust-8841', lat: 5.55031, lng: -0.21738, accuracy_m: 8, recorded_at: '2026-11-27T09:12:40Z', address: '0QP-PAN-VTWH' } })
  @ApiResponse({ status: 400, description: 'INVALID_PARAM naming the field; INVALID_CODE (field `address`)' })
  @ApiResponse({ status: 403, description: 'ACCOUNT_KEY_REQUIRED: delivery ids belong to an account' })
  @ApiResponse({ status: 409, description: 'CONCURRENCY_CONFLICT: confirmations of this delivery kept racing; retry (the answer is then the first receipt)' })
  @ApiResponse({ status: 410, description: "DELIVERY_ERASED: confirmed before, and the customer's location data has since been erased with the receipt (the receipt as issued still verifies)" })
  @ApiResponse({ status: 503, description: 'DATASET_NOT_LOADED: a text `address` before any place dataset is imported; SIGNING_KEY_UNAVAILABLE' })
  async confirm(@Req() request: FastifyRequest, @Body() body: ConfirmDeliveryRequest): Promise<AnswerOf<typeof DeliveryReceiptSchema>> {
    const { state, events } = await this.commands.execute(
      new ConfirmDeliveryCommand({
      type: 'ConfirmDelivery',
      account_id: callingAccount(request),
      delivery_id: body.delivery_id,
      receipt_id: `rcpt_${randomUUID().replace(/-/g, '')}`,
      customer_id: body.customer_id ?? null,
      courier: { lat: body.lat, lng: body.lng, accuracy_m: body.accuracy_m ?? null, recorded_at: body.recorded_at, mock_location: body.mock_location ?? null },
      device_id: body.device_id ?? null,
      address: body.address ?? null,
      recipient_name: body.recipient_name ?? null,
      photo_sha256: body.photo_sha256?.toLowerCase() ?? null,
      }),
    );
    if (state.status !== 'confirmed') throw new Error('a confirmation left the delivery unconfirmed');
    if (state.confirmation.location_erased) throw new DeliveryErasedError(body.delivery_id);
    return receiptAnswer(state.confirmation, events.length === 0);
  }
}

export function receiptAnswer(data: DeliveryConfirmed['data'], alreadyConfirmed: boolean) {
  return {
    delivery_id: data.delivery_id,
    customer_id: data.customer_id,
    receipt: data.receipt,
    receipt_id: data.receipt_id,
    kid: data.kid,
    confirmed_at: data.confirmed_at,
    location_code: data.location_code,
    address: data.address,
    provenance: data.provenance,
    already_confirmed: alreadyConfirmed,
  };
}
