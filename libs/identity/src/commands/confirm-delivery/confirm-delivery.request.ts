import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { CALLER_ID, callerIdMessage, CUSTOMER_ID_MESSAGE } from '../../../../platform/src/index.js';
import { ACCURACY_DESCRIPTION, AccuracyRange, MAX_ADDRESS_LENGTH, PositionFields } from '../../http/identity.requests.js';

/** Printable text: no control characters (names go into a signed receipt and webhook payloads). */
const PRINTABLE = /^[^\p{Cc}]*$/u;
export const SHA256_HEX = /^[0-9a-fA-F]{64}$/;

/** POST /v2/pod/confirm: the delivery, where the courier is, and what was seen at the hand-over. */
export class ConfirmDeliveryRequest extends PositionFields {
  @ApiProperty({ description: 'Your id of the delivery; confirming it again answers the first receipt', pattern: CALLER_ID.source, example: 'dlv-2026-0042' })
  @Matches(CALLER_ID, { message: callerIdMessage('delivery_id') })
  delivery_id: string;

  @ApiPropertyOptional({ description: `${ACCURACY_DESCRIPTION}; without it the fix is taken as 100 m`, minimum: 0, maximum: 100_000, example: 8 })
  @IsOptional()
  @AccuracyRange()
  accuracy_m?: number;

  @ApiPropertyOptional({ description: "Your id of the courier's device (kept only as a keyed hash)", pattern: CALLER_ID.source, example: 'courier-phone-3' })
  @IsOptional()
  @Matches(CALLER_ID, { message: callerIdMessage('device_id') })
  device_id?: string;

  @ApiPropertyOptional({ description: 'Your id of the customer the parcel was for (carried into the delivery.confirmed webhook)', pattern: CALLER_ID.source, example: 'cust-0042' })
  @IsOptional()
  @Matches(CALLER_ID, { message: CUSTOMER_ID_MESSAGE })
  customer_id?: string;

  @ApiPropertyOptional({
    description: 'The address the parcel was for (a hex code, or text resolved as GET /v2/address/resolve does): the receipt then says how far from it the hand-over was, and whether it was within the proximity radius',
    maxLength: MAX_ADDRESS_LENGTH,
    example: '6Q3-HQK-Q4ZA',
  })
  @IsOptional()
  @IsString({ message: 'address must be a string' })
  @MinLength(1, { message: 'address must not be empty' })
  @MaxLength(MAX_ADDRESS_LENGTH, { message: `address must be at most ${MAX_ADDRESS_LENGTH} characters` })
  address?: string;

  @ApiPropertyOptional({ description: 'Who received the parcel, as the courier recorded it (signed into the receipt)', maxLength: 200, example: 'Ama Mensah' })
  @IsOptional()
  @IsString({ message: 'recipient_name must be a string' })
  @MinLength(1, { message: 'recipient_name must not be empty' })
  @MaxLength(200, { message: 'recipient_name must be at most 200 characters' })
  @Matches(PRINTABLE, { message: 'recipient_name must not contain control characters' })
  recipient_name?: string;

  @ApiPropertyOptional({ description: 'SHA-256 (64 hex digits) of the hand-over photo you keep; no image is sent or stored, the receipt signs the hash', example: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855' })
  @IsOptional()
  @Matches(SHA256_HEX, { message: 'photo_sha256 must be 64 hexadecimal digits' })
  photo_sha256?: string;
}
