import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { ApiAnswer, BankingOnly, callingAccount, type AnswerOf } from '../../../../platform/src/index.js';
import { BANKING_ACCESS_DOC } from '../../banking-access.js';
import { registrationOutcome, type LoanState, type RegistrationOutcome } from '../../domain/loan.js';
import { loanRegistration } from '../../loans/loan-registration.js';
import { LoanRegistrationSchema } from './register-loan.answer.js';
import { RegisterLoanCommand } from './register-loan.handler.js';
import { RegisterLoanRequest } from './register-loan.request.js';

/** interface.md, "Banking features": POST /v2/collections/register. */
@ApiTags('banking')
@ApiSecurity('api_key')
@Controller('v2/collections')
export class RegisterLoanController {
  constructor(private readonly commands: CommandBus) {}

  @Post('register')
  @HttpCode(200)
  @BankingOnly()
  @ApiOperation({
    summary: 'Register a loan and the zone its borrower is collected in',
    description:
      'Idempotent by `loan_id`: the same terms again change nothing (`outcome: "unchanged"`), other terms replace them (`"updated"`). Every registration is an event (`CollectionLoanRegistered`). ' +
      'Locating the borrower later needs their consent with purpose `loan_collections` (POST /v2/consent/grant); registering does not.',
  })
  @ApiAnswer(LoanRegistrationSchema, {
    requestExample: { loan_id: 'KMA-2026-004187', customer_id: 'cust-88213', zone: { type: 'point', lat: 6.6885, lng: -1.6244, radius_m: 500 }, expected_collection_days: 7 },
  })
  @ApiResponse({ status: 400, description: 'INVALID_PARAM naming the field (`zone.radius_m`, `zone.polygon`…); INVALID_CODE for a bad hex code (`zone.code`)' })
  @ApiResponse({ status: 403, description: BANKING_ACCESS_DOC })
  @ApiResponse({ status: 409, description: 'CONCURRENCY_CONFLICT: other requests kept changing the same loan (the same loan_id registered at once) while this one was retried (3 retries with a random back-off); send it again' })
  async register(@Req() request: FastifyRequest, @Body() body: RegisterLoanRequest): Promise<AnswerOf<typeof LoanRegistrationSchema>> {
    const input = loanRegistration(callingAccount(request), body);
    const result = await this.commands.execute(new RegisterLoanCommand(input));
    return loanAnswer(input.loan_id, result.state, registrationOutcome(result.previous, result.events));
  }
}

export function loanAnswer(loanId: string, state: LoanState, outcome: RegistrationOutcome) {
  if (state.status !== 'registered') throw new Error('a registration left no registered loan');
  const { customer_id, zone, expected_collection_days } = state.terms;
  return { loan_id: loanId, customer_id, zone, expected_collection_days, outcome, registered_at: state.registered_at };
}
