import { ApiProperty } from '@nestjs/swagger';
import { Matches } from 'class-validator';
import { CUSTOMER_ID_MESSAGE } from '../../platform/src/index.js';
import { CUSTOMER_ID } from './domain/consent.js';

/** The customer is the caller's own id for them; the same id under another account is another customer. */
export class CustomerRequest {
  @ApiProperty({ description: "Your own identifier of the customer", pattern: CUSTOMER_ID.source, minLength: 1, maxLength: 128, example: 'cust-0042' })
  @Matches(CUSTOMER_ID, { message: CUSTOMER_ID_MESSAGE })
  customer_id: string;
}
