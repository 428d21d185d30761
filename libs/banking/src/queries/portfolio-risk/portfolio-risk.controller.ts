import { Body, Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiPropertyOptional, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsInt, IsString, Max, Min } from 'class-validator';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiAnswer, BankingOnly, Expensive, OptionalNotNull, RawResponse } from '../../../../platform/src/index.js';
import { callingAccount } from '../../../../platform/src/index.js';
import { BANKING_ACCESS_DOC } from '../../banking-access.js';
import { HIGH_RISK, MEDIUM_RISK, RISK_WEIGHTS } from '../../domain/risk.js';
import { PortfolioRiskSchema } from './portfolio-risk.answer.js';
import { PortfolioRiskQuery } from './portfolio-risk.handler.js';

export const MAX_RISK_LOAN_IDS = 10_000;

export class PortfolioRiskRequest {
  @ApiPropertyOptional({ description: `Assess only these loans (at most ${MAX_RISK_LOAN_IDS}); absent: every loan registered by the account`, type: [String] })
  @OptionalNotNull()
  @IsArray()
  @ArrayMaxSize(MAX_RISK_LOAN_IDS)
  @IsString({ each: true })
  loan_ids?: string[];

  @ApiPropertyOptional({ description: "A borrower not seen for more than this many days counts as not seen (a loan's own expected_collection_days wins)", minimum: 1, maximum: 365, default: 7 })
  @OptionalNotNull()
  @IsInt()
  @Min(1)
  @Max(365)
  not_seen_days?: number;

  @ApiPropertyOptional({ description: 'Loans in one res-7 hex at which its concentration factor is full', minimum: 2, maximum: 100000, default: 20 })
  @OptionalNotNull()
  @IsInt()
  @Min(2)
  @Max(100_000)
  concentration_min_loans?: number;

  @ApiPropertyOptional({ description: 'At most this many loans (highest risk first), loan ids per factor and hexes in the answer', minimum: 1, maximum: 10000, default: 100 })
  @OptionalNotNull()
  @IsInt()
  @Min(1)
  @Max(10_000)
  limit?: number;
}

/** interface.md, "Banking features": POST /v2/analytics/portfolio-risk. */
@ApiTags('banking')
@ApiSecurity('api_key')
@Controller('v2/analytics')
export class PortfolioRiskController {
  constructor(private readonly queries: QueryBus) {}

  @Post('portfolio-risk')
  @HttpCode(200)
  @BankingOnly()
  // Up to 10,000 loans assessed: at most EXPENSIVE_CONCURRENCY_PER_KEY at once per key (issue 31).
  @Expensive()
  // Up to limit 10,000 loans answered (~2.7 MB): the envelope's bytes are made on the portfolio-risk thread (issue 48).
  @RawResponse()
  @ApiOperation({
    summary: 'Where the book stands: borrowers drifting, out of zone, not seen, under weather alerts, and concentration',
    description:
      `Per loan a score 0-100: out_of_zone ${RISK_WEIGHTS.out_of_zone}, not_seen ${RISK_WEIGHTS.not_seen}, drifting ${RISK_WEIGHTS.drifting}, weather_alert ${RISK_WEIGHTS.weather_alert}, ` +
      `concentration ${RISK_WEIGHTS.concentration} × min(1, loans in its res-7 hex / concentration_min_loans); ${HIGH_RISK}+ high, ${MEDIUM_RISK}+ medium (docs/adr/0022). ` +
      'Positions are used only for borrowers under a loan_collections consent; the others count as not seen and are listed under no_consent. ' +
      'weather_alert counts loans whose zone anchor an active CAP flood/rain or Severe/Extreme alert covers; it says `available: false` while the deployment has no alert feed and no imported alert.',
  })
  @ApiAnswer(PortfolioRiskSchema, { requestExample: { loan_ids: ['KMA-2026-004187', 'KMA-2026-004188'], not_seen_days: 7, concentration_min_loans: 20, limit: 100 } })
  @ApiResponse({ status: 400, description: 'INVALID_PARAM naming the field' })
  @ApiResponse({ status: 403, description: BANKING_ACCESS_DOC })
  @ApiResponse({
    status: 503,
    description:
      "PORTFOLIO_BUSY: the portfolio-risk thread's queue is full, or the assessment ran past its time or its thread failed (`details.reason`: refused, timed_out, thread_failed, shut_down); wait Retry-After seconds",
  })
  async assess(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Body() body: PortfolioRiskRequest = {}): Promise<FastifyReply> {
    const answer: Buffer = await this.queries.execute(
      new PortfolioRiskQuery(callingAccount(request), {
        loan_ids: body.loan_ids,
        not_seen_days: body.not_seen_days ?? 7,
        concentration_min_loans: body.concentration_min_loans ?? 20,
        limit: body.limit ?? 100,
      }),
    );
    return reply.status(200).header('content-type', 'application/json; charset=utf-8').send(answer);
  }
}
