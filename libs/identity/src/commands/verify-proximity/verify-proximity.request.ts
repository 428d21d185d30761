import { ApiProperty, IntersectionType } from '@nestjs/swagger';
import { ACCURACY_DESCRIPTION, AccuracyRange, CustomerClaimRequest, PositionFields } from '../../http/identity.requests.js';

/** POST /v2/verify/proximity: the claimed address, and where the customer's device is. */
export class VerifyProximityRequest extends IntersectionType(CustomerClaimRequest, PositionFields) {
  @ApiProperty({ description: ACCURACY_DESCRIPTION, minimum: 0, maximum: 100_000, example: 12 })
  @AccuracyRange()
  accuracy_m: number;
}
