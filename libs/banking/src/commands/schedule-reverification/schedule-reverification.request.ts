import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { MAX_EVERY_DAYS, MIN_EVERY_DAYS, REVERIFICATION_METHODS, type ReverificationMethod } from '../../domain/schedule.js';

/** POST /v2/verify/schedule: a loan or a customer (exactly one), every N days, by a method. */
export class ScheduleReverificationRequest {
  @ApiPropertyOptional({ description: 'A registered loan: its borrower is re-verified, at the loan zone unless `address` is given', example: 'loan-2026-0001' })
  @IsOptional()
  @IsString()
  loan_id?: string;

  @ApiPropertyOptional({ description: "A customer: re-verified at `address`, or at the address of their latest KYC verification", example: 'cust-1' })
  @IsOptional()
  @IsString()
  customer_id?: string;

  @ApiProperty({ description: `Days between runs (${MIN_EVERY_DAYS}-${MAX_EVERY_DAYS}); the first run is due that many days from now`, example: 30 })
  @IsInt()
  @Min(MIN_EVERY_DAYS)
  @Max(MAX_EVERY_DAYS)
  every_days!: number;

  @ApiPropertyOptional({ description: '`kyc_address`: the address verification of POST /v2/kyc/verify, on the pings recorded for the customer in the last 30 days', enum: REVERIFICATION_METHODS, default: 'kyc_address' })
  @IsOptional()
  @IsIn(REVERIFICATION_METHODS)
  method?: ReverificationMethod;

  @ApiPropertyOptional({ description: 'The address to verify (a hex code or address text, as POST /v2/kyc/verify takes it)', example: '6Q3-HQK-Q4ZA' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  address?: string;
}
