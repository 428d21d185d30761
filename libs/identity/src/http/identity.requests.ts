import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsEmail, IsIP, IsISO8601, IsNumber, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';
import { MAX_ACCURACY_INPUT_M } from '../domain/proximity.js';
import { CALLER_ID, callerIdMessage, CUSTOMER_ID_MESSAGE, Latitude, Longitude } from '../../../platform/src/index.js';
import { PHONE } from '../domain/identifiers.js';

/** A time needs its zone: without one, "09:30" would be read in the server's. */
const WITH_ZONE = /T.*(Z|[+-]\d{2}:?\d{2})$/i;

/** As GET /v2/address/resolve takes it. */
export const MAX_ADDRESS_LENGTH = 200;

/** Fields every identity request about a customer shares: who, which address, and the identifiers the fraud checks compare. */
export class CustomerClaimRequest {
  @ApiProperty({ description: 'Your own identifier of the customer', pattern: CALLER_ID.source, example: 'cust-0042' })
  @Matches(CALLER_ID, { message: CUSTOMER_ID_MESSAGE })
  customer_id: string;

  @ApiProperty({
    description: 'The claimed address: a hex code in any shape (as GET /v2/address/resolve takes it), or text naming a place (resolved through the imported place datasets; 503 DATASET_NOT_LOADED before any import)',
    maxLength: MAX_ADDRESS_LENGTH,
    example: '6Q3-HQK-Q4ZA',
  })
  @IsString({ message: 'address must be a string' })
  @MinLength(1, { message: 'address must not be empty' })
  @MaxLength(MAX_ADDRESS_LENGTH, { message: `address must be at most ${MAX_ADDRESS_LENGTH} characters` })
  address: string;

  @ApiPropertyOptional({ description: 'Your id of the device the positions come from (device-bulk, synthetic identity and velocity checks; stored only as a keyed hash)', pattern: CALLER_ID.source, example: 'phone-7' })
  @IsOptional()
  @Matches(CALLER_ID, { message: callerIdMessage('device_id') })
  device_id?: string;

  @ApiPropertyOptional({ description: "The customer's phone number (synthetic-identity check; stored only as a keyed hash of its digits)", example: '+233 24 123 4567' })
  @IsOptional()
  @Matches(PHONE, { message: 'phone must be a phone number of 7 to 15 digits' })
  phone?: string;

  @ApiPropertyOptional({ description: "The customer's e-mail address (synthetic-identity check; stored only as a keyed hash)", example: 'ama@example.com' })
  @IsOptional()
  @IsEmail({}, { message: 'email must be an e-mail address' })
  @MaxLength(254, { message: 'email must be at most 254 characters' })
  email?: string;

  @ApiPropertyOptional({
    description: "The IP address the customer's own device used, as you saw it (IP-bulk check). Without it, the IP of this request is used, which counts every customer you verify from your servers as one IP.",
    example: '203.0.113.7',
  })
  @IsOptional()
  @IsIP(undefined, { message: 'client_ip must be an IPv4 or IPv6 address' })
  client_ip?: string;
}

/** A device position: `lat`, `lng` (WGS 84), the fix's accuracy, when it was taken. */
export class PositionFields {
  @Latitude({ rangeMessage: 'outside', description: 'Latitude, decimal degrees (WGS 84)', example: 5.6037 })
  lat: number;

  @Longitude({ rangeMessage: 'outside', description: 'Longitude, decimal degrees (WGS 84)', example: -0.187 })
  lng: number;

  @ApiPropertyOptional({ description: 'When the device took the fix (ISO 8601 with a time zone; default: when the request arrived). At most 5 minutes ahead and 30 days old.', example: '2026-11-22T09:30:00Z' })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'recorded_at must be an ISO 8601 time with a time zone' })
  @Matches(WITH_ZONE, { message: 'recorded_at must be an ISO 8601 time with a time zone' })
  recorded_at?: string;

  @ApiPropertyOptional({
    description: "What the device's OS says about the fix: true when it flagged it as simulated (Android `Location.isMock()`, iOS `CLLocationSourceInformation.isSimulatedBySoftware`). A simulated position fails a verification (docs/adr/0030). Omit when your app cannot tell.",
    example: false,
  })
  @IsOptional()
  @IsBoolean({ message: 'mock_location must be true or false' })
  mock_location?: boolean;
}

export const ACCURACY_DESCRIPTION = 'Horizontal accuracy of the fix in metres, as the phone reports it (the radius of its 68% circle)';

/** accuracy_m: 0 to 100 km. */
export const AccuracyRange = () =>
  applyDecorators(
    IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'accuracy_m must be a number' }),
    Min(0, { message: `accuracy_m must be a number from 0 to ${MAX_ACCURACY_INPUT_M}` }),
    Max(MAX_ACCURACY_INPUT_M, { message: `accuracy_m must be a number from 0 to ${MAX_ACCURACY_INPUT_M}` }),
  );
