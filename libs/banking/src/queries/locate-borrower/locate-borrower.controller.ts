import { Body, Controller, Get, HttpCode, Post, Query, Req } from '@nestjs/common';
import { ApiOperation, ApiProperty, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { IsString } from 'class-validator';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { ApiAnswer, BankingOnly, type AnswerOf } from '../../../../platform/src/index.js';
import { callingAccount } from '../../../../platform/src/index.js';
import { BANKING_ACCESS_DOC } from '../../banking-access.js';
import { parseLoanId } from '../../domain/loan.js';
import { BorrowerLocationSchema } from './locate-borrower.answer.js';
import { LocateBorrowerQuery } from './locate-borrower.handler.js';

export class LocateBorrowerRequest {
  @ApiProperty({ description: 'The loan, as registered', example: 'loan-2026-0001' })
  @IsString()
  loan_id!: string;
}

const DESCRIPTION =
  "Only when the borrower's standing consent has purpose `loan_collections` (POST /v2/consent/grant); otherwise 403 `CONSENT_REQUIRED` with `details.missing_consent: \"loan_collections\"` and the consent found. " +
  'GET with `?loan_id=` is the canonical form (a read that changes nothing); POST with `{"loan_id"}` answers the same, for clients that keep ids out of URLs (docs/adr/0022).';

/** interface.md, "Banking features": POST or GET /v2/collections/locate. */
@ApiTags('banking')
@ApiSecurity('api_key')
@Controller('v2/collections')
export class LocateBorrowerController {
  constructor(private readonly queries: QueryBus) {}

  @Get('locate')
  @BankingOnly()
  @ApiOperation({ summary: "Where the borrower was last seen, against the loan's collection zone", description: DESCRIPTION })
  @ApiAnswer(BorrowerLocationSchema)
  @ApiResponse({ status: 400, description: 'INVALID_PARAM (`loan_id`)' })
  @ApiResponse({ status: 403, description: `CONSENT_REQUIRED (no loan_collections consent); ${BANKING_ACCESS_DOC}` })
  @ApiResponse({ status: 404, description: 'LOAN_NOT_FOUND' })
  get(@Req() request: FastifyRequest, @Query() query: LocateBorrowerRequest): Promise<AnswerOf<typeof BorrowerLocationSchema>> {
    return this.queries.execute(new LocateBorrowerQuery(callingAccount(request), parseLoanId(query.loan_id)));
  }

  @Post('locate')
  @HttpCode(200)
  @BankingOnly()
  @ApiOperation({ summary: 'As GET /v2/collections/locate, with the loan id in the body', description: DESCRIPTION })
  @ApiAnswer(BorrowerLocationSchema, { requestExample: { loan_id: 'KMA-2026-004187' } })
  @ApiResponse({ status: 400, description: 'INVALID_PARAM (`loan_id`)' })
  @ApiResponse({ status: 403, description: `CONSENT_REQUIRED (no loan_collections consent); ${BANKING_ACCESS_DOC}` })
  @ApiResponse({ status: 404, description: 'LOAN_NOT_FOUND' })
  post(@Req() request: FastifyRequest, @Body() body: LocateBorrowerRequest): Promise<AnswerOf<typeof BorrowerLocationSchema>> {
    return this.queries.execute(new LocateBorrowerQuery(callingAccount(request), parseLoanId(body.loan_id)));
  }
}
