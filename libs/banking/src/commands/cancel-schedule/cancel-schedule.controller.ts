import { Controller, Delete, Param, Req } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { ApiAnswer, BankingOnly, callingAccount, type AnswerOf } from '../../../../platform/src/index.js';
import { ScheduleNotFoundError } from '../../domain/errors.js';
import { parseScheduleId } from '../../domain/schedule.js';
import { scheduleView } from '../../public/reverification-schedules.read-model.js';
import { BANKING_ACCESS_DOC } from '../../banking-access.js';
import { publicSchedule, ReverificationScheduleSchema } from '../../reverification/schedule.answer.js';
import { CancelScheduleCommand } from './cancel-schedule.handler.js';

/** interface.md, "Banking features": DELETE /v2/verify/schedule/{id}. */
@ApiTags('banking')
@ApiSecurity('api_key')
@Controller('v2/verify/schedule')
export class CancelScheduleController {
  constructor(private readonly commands: CommandBus) {}

  @Delete(':id')
  @BankingOnly()
  @ApiParam({ name: 'id', description: 'The schedule id (rvs_…)' })
  @ApiOperation({ summary: 'Cancel a re-verification schedule: no further run starts', description: 'Cancelling twice answers the cancelled schedule again. A run already started finishes but is not recorded.' })
  @ApiAnswer(ReverificationScheduleSchema, { description: '`data` is the cancelled ReverificationSchedule' })
  @ApiResponse({ status: 400, description: 'INVALID_PARAM (`id`)' })
  @ApiResponse({ status: 403, description: BANKING_ACCESS_DOC })
  @ApiResponse({ status: 404, description: "SCHEDULE_NOT_FOUND (unknown, or another account's)" })
  async cancel(@Req() request: FastifyRequest, @Param('id') id: string): Promise<AnswerOf<typeof ReverificationScheduleSchema>> {
    const accountId = callingAccount(request);
    const scheduleId = parseScheduleId(id);
    const { state } = await this.commands.execute(new CancelScheduleCommand({ type: 'CancelSchedule', account_id: accountId, schedule_id: scheduleId }));
    if (state.status === 'none') throw new ScheduleNotFoundError(scheduleId);
    return publicSchedule(scheduleView(scheduleId, accountId, state));
  }
}
