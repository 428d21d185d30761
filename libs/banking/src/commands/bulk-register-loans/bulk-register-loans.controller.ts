import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { ApiAnswer, BankingOnly, callingAccount, Expensive, itemsIn, type AnswerOf } from '../../../../platform/src/index.js';
import { BANKING_ACCESS_DOC } from '../../banking-access.js';
import { BulkLoanRegistrationSchema } from './bulk-register-loans.answer.js';
import { BulkRegisterLoansCommand, MAX_BULK_LOANS } from './bulk-register-loans.handler.js';
import { BulkRegisterLoansRequest } from './bulk-register-loans.request.js';

/** interface.md, "Banking features": POST /v2/collections/bulk-register. */
@ApiTags('banking')
@ApiSecurity('api_key')
@Controller('v2/collections')
export class BulkRegisterLoansController {
  constructor(private readonly commands: CommandBus) {}

  @Post('bulk-register')
  @HttpCode(200)
  // Counts its loans against the quota; at most EXPENSIVE_CONCURRENCY_PER_KEY at once per key (issue 31).
  @Expensive({ items: itemsIn('loans', MAX_BULK_LOANS) })
  @BankingOnly()
  @ApiOperation({
    summary: `Register up to ${MAX_BULK_LOANS} loans at once, with an outcome per loan`,
    description:
      'Each item is a registration as POST /v2/collections/register, idempotent by `loan_id`: sending the batch again answers `unchanged` for what is already registered. ' +
      'A bad item is refused alone (`outcome: "refused"` with its error, the field named `loans[i].…`); a loan id twice in the batch is refused the second time (`DUPLICATE_LOAN_ID`). ' +
      'The body limits apply (1 MiB by default, 100,000 JSON values): 10,000 point zones with short ids fit.',
  })
  @ApiAnswer(BulkLoanRegistrationSchema, {
    description: '`data` is a BulkLoanRegistration: items in request order; an item whose loan other requests kept changing while it was retried is refused with error.code CONCURRENCY_CONFLICT (send it again)',
    requestExample: {
      loans: [
        { loan_id: 'KMA-2026-004187', customer_id: 'cust-88213', zone: { type: 'point', lat: 6.6885, lng: -1.6244, radius_m: 500 }, expected_collection_days: 7 },
        { loan_id: 'ACC-2026-000912', customer_id: 'cust-90412', zone: { type: 'hex', code: 'GA4K7M2QX' } },
      ],
    },
  })
  @ApiResponse({ status: 400, description: `INVALID_PARAM (\`loans\`: not an array, empty, or more than ${MAX_BULK_LOANS})` })
  @ApiResponse({ status: 403, description: BANKING_ACCESS_DOC })
  async bulk(@Req() request: FastifyRequest, @Body() body: BulkRegisterLoansRequest): Promise<AnswerOf<typeof BulkLoanRegistrationSchema>> {
    const items = await this.commands.execute(new BulkRegisterLoansCommand(callingAccount(request), body.loans));
    const count = (outcome: string) => items.filter((item) => item.outcome === outcome).length;
    return { total: items.length, created: count('created'), updated: count('updated'), unchanged: count('unchanged'), refused: count('refused'), items };
  }
}
