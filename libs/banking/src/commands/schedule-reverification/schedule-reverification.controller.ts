import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { ApiAnswer, BankingOnly, type AnswerOf } from '../../../../platform/src/index.js';
import { callingAccount } from '../../../../platform/src/index.js';
import { scheduleView } from '../../public/reverification-schedules.read-model.js';
import { BANKING_ACCESS_DOC } from '../../banking-access.js';
import { publicSchedule, ReverificationScheduleSchema } from '../../reverification/schedule.answer.js';
import { ScheduleReverificationCommand } from './schedule-reverification.process.js';
import { ScheduleReverificationRequest } from './schedule-reverification.request.js';

export const SCHEDULE_ANSWER =
  '`{id, status (active | cancelled | stopped), customer_id, loan_id, every_days, method, address (null once the customer\'s data was erased), scheduled_at, first_due_at, next_due_at, runs, last_run {run, ran_at, result (verified | not_verified | insufficient_evidence | failed), score, verification_id} | null, cancelled_at, stopped_at, stopped_reason (consent_revoked: the customer\'s consent was revoked; data_erased: their location data was erased; either stops the schedule when it happens, no run follows) | null}`';

/** interface.md, "Banking features": POST /v2/verify/schedule. */
@ApiTags('banking')
@ApiSecurity('api_key')
@Controller('v2/verify')
export class ScheduleReverificationController {
  constructor(private readonly commands: CommandBus) {}

  @Post('schedule')
  @HttpCode(201)
  @BankingOnly()
  @ApiOperation({
    summary: "Re-verify a borrower's address every N days",
    description:
      'Each run is a delayed job on the job queue (it survives restarts): identity\'s address verification (as POST /v2/kyc/verify) on the latest evidence, the pings recorded for the customer in the last 30 days under their consent. ' +
      'The result is recorded (`ReverificationCompleted`), shown in `last_run`, and sent as the `reverification.completed` webhook. Run n is due `first_due_at + (n-1) × every_days`.',
  })
  @ApiAnswer(ReverificationScheduleSchema, { status: 201, requestExample: { loan_id: 'KMA-2026-004187', every_days: 30, method: 'kyc_address', address: 'GA4K7M2QX' } })
  @ApiResponse({ status: 400, description: 'INVALID_PARAM (`loan_id`/`customer_id`: exactly one; `every_days`; `method`); ADDRESS_REQUIRED: a customer with no verified address and none given' })
  @ApiResponse({ status: 403, description: BANKING_ACCESS_DOC })
  @ApiResponse({ status: 404, description: 'LOAN_NOT_FOUND' })
  async schedule(@Req() request: FastifyRequest, @Body() body: ScheduleReverificationRequest): Promise<AnswerOf<typeof ReverificationScheduleSchema>> {
    const accountId = callingAccount(request);
    const { schedule_id, state } = await this.commands.execute(new ScheduleReverificationCommand(accountId, body));
    return publicSchedule(scheduleView(schedule_id, accountId, state));
  }
}
