import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { MAX_COLLECTION_DAYS } from '../../domain/loan.js';

/** POST /v2/collections/register (one item of bulk-register has the same fields). */
export class RegisterLoanRequest {
  @ApiProperty({ description: 'Your id of the loan (1-128 of A-Z a-z 0-9 . _ : -); registering it again with other terms updates them', example: 'loan-2026-0001' })
  @IsString()
  loan_id!: string;

  @ApiProperty({ description: 'Your id of the borrower, as in POST /v2/consent/grant', example: 'cust-1' })
  @IsString()
  customer_id!: string;

  @ApiProperty({
    description:
      'The collection zone: `{"type": "point", "lat", "lng", "radius_m" (10-50000)}`, `{"type": "hex", "code": "<hex code>"}` (the H3 cell of the code, any resolution) or `{"type": "polygon", "polygon": <GeoJSON Polygon>}` (geofence rules: ≤ 1000 vertices, 100 m² to 10,000 km²)',
    example: { type: 'point', lat: 5.5497, lng: -0.2107, radius_m: 300 },
  })
  @IsDefined()
  zone!: unknown;

  @ApiPropertyOptional({ description: `Days between expected collections (1-${MAX_COLLECTION_DAYS}); portfolio risk counts a borrower not seen for longer than this as not seen`, example: 7 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_COLLECTION_DAYS)
  expected_collection_days?: number;
}
