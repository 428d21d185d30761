import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsObject, IsOptional } from 'class-validator';
import { MAX_PINGS_PER_REQUEST } from '../../domain/location.js';

/**
 * One ping, or `{"pings": [...]}` with up to 1000 (decisions.md, "Endpoints
 * the specification implies"). Each ping is checked on its own so that one
 * bad fix is reported in its outcome instead of failing the batch; the
 * fields are therefore declared loosely here and validated in the domain.
 */
export class RecordPingsRequest {
  @ApiPropertyOptional({ type: String, description: "Your own id of the customer (single-ping form)", example: 'cust-0042' })
  @IsOptional()
  customer_id?: unknown;

  @ApiPropertyOptional({ type: Number, description: 'Latitude, decimal degrees (WGS 84)', example: 5.6037, minimum: -90, maximum: 90 })
  @IsOptional()
  lat?: unknown;

  @ApiPropertyOptional({ type: Number, description: 'Longitude, decimal degrees (WGS 84)', example: -0.187, minimum: -180, maximum: 180 })
  @IsOptional()
  lng?: unknown;

  @ApiPropertyOptional({ type: Number, description: 'Horizontal accuracy of the fix in metres', example: 12 })
  @IsOptional()
  accuracy_m?: unknown;

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    description:
      'When the phone took the fix (ISO 8601 with zone; default: when it was received). Pings are ordered by it, and a replayed ping is recognised by its content including this time, so send it: without it a replay is a new ping. At most 5 minutes ahead and 30 days old.',
    example: '2026-11-22T09:30:00Z',
  })
  @IsOptional()
  recorded_at?: unknown;

  @ApiPropertyOptional({ type: String, description: 'Your id of the device', example: 'phone-7' })
  @IsOptional()
  device_id?: unknown;

  @ApiPropertyOptional({
    type: Boolean,
    description:
      "The device's own flag that the fix was simulated (Android Location.isMock, iOS isSimulatedBySoftware). Stored with the ping; a KYC verification over recorded pings fails on one flagged true (reason mock_location_reported), as it does for an asserted position (docs/adr/0030).",
  })
  @IsOptional()
  mock_location?: unknown;

  @ApiProperty({
    required: false,
    description: `Batch form: up to ${MAX_PINGS_PER_REQUEST} pings, each {customer_id, lat, lng, accuracy_m?, recorded_at?, device_id?, mock_location?}, for one or many customers`,
    type: 'array',
    items: { type: 'object' },
    maxItems: MAX_PINGS_PER_REQUEST,
  })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_PINGS_PER_REQUEST, { message: `pings holds at most ${MAX_PINGS_PER_REQUEST} pings per request` })
  @IsObject({ each: true, message: 'each entry of pings must be a ping object' })
  pings?: Record<string, unknown>[];
}
