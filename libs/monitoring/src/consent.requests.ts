import { ApiProperty } from '@nestjs/swagger';
import { Matches } from 'class-validator';
import { CUSTOMER_ID } from './domain/consent.js';

export const CUSTOMER_ID_MESSAGE = 'customer_id must be 1-128 characters of A-Z, a-z, 0-9, ".", "_", ":" and "-"';

/** The customer is the caller's own id for them; the same id under another account is another customer. */
export class CustomerRequest {
  @ApiProperty({ description: "Your own identifier of the customer", pattern: CUSTOMER_ID.source, minLength: 1, maxLength: 128, example: 'cust-0042' })
  @Matches(CUSTOMER_ID, { message: CUSTOMER_ID_MESSAGE })
  customer_id: string;
}
