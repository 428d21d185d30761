import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray } from 'class-validator';
import { MAX_BULK_LOANS } from './bulk-register-loans.handler.js';

/** POST /v2/collections/bulk-register: items are checked one by one (a bad one is refused alone). */
export class BulkRegisterLoansRequest {
  @ApiProperty({ description: `Up to ${MAX_BULK_LOANS} registrations, each as the body of POST /v2/collections/register`, type: 'array', items: { type: 'object' } })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_BULK_LOANS)
  loans!: unknown[];
}
