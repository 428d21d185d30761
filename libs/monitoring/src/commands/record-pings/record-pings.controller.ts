import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { AccountOnly, CountsItems, InvalidParamError, itemsIn } from '../../../../platform/src/index.js';
import { callingAccount } from '../../../../platform/src/index.js';
import { ConsentRequiredError, MAX_PINGS_PER_REQUEST } from '../../domain/location.js';
import { RecordPingBatchCommand } from './record-pings.process.js';
import { RecordPingsRequest } from './record-pings.request.js';
import { ApiAnswer, type AnswerOf } from '../../../../platform/src/index.js';
import { PingsRecordedSchema } from './record-pings.answer.js';

/**
 * POST /v2/monitoring/pings. The batch form answers 200 with one outcome per
 * ping, in request order (`accepted`, `duplicate`, or `refused` with the
 * reason, CONSENT_REQUIRED among them) and counts. The single-ping form
 * answers its outcome, or the refusal as an error (400, or 403 CONSENT_REQUIRED).
 * Drift and geofence_breach events derived from the pings are stored with
 * them and reach webhooks from the log.
 */
@ApiTags('monitoring')
@ApiSecurity('api_key')
@Controller('v2/monitoring')
export class RecordPingsController {
  constructor(private readonly commands: CommandBus) {}

  @Post('pings')
  @HttpCode(200)
  @AccountOnly()
  // A batch counts its pings against the daily quota, whatever their outcomes (issue 31, item 2; ADR 0042).
  @CountsItems(itemsIn('pings', MAX_PINGS_PER_REQUEST))
  @ApiOperation({
    summary: 'Record location pings (one, or a batch of up to 1000); idempotent; needs granted consent',
    description:
      'A batch counts its number of pings against the daily quota, whatever their outcomes (X-RateLimit-Remaining shows them gone; a batch larger than the whole daily limit is 429 RATE_LIMITED, details.reason batch_over_quota); ' +
      'the single-ping form counts 1.',
  })
  @ApiAnswer(PingsRecordedSchema, { requestExample: { pings: [{ customer_id: 'cust-8841', lat: 5.55031, lng: -0.21739, accuracy_m: 9, recorded_at: '2026-11-27T08:55:00Z' }, { customer_id: 'cust-8841', lat: 5.55027, lng: -0.21744, accuracy_m: 11, recorded_at: '2026-11-27T09:00:00Z' }] } })
  @ApiResponse({ status: 403, description: 'CONSENT_REQUIRED (single-ping form): the customer has not granted location consent; nothing was stored' })
  @ApiResponse({ status: 409, description: 'CONCURRENCY_CONFLICT: other batches of the same customer kept landing first; sending the request again is safe (stored pings answer duplicate)' })
  async record(@Req() request: FastifyRequest, @Body() body: RecordPingsRequest): Promise<AnswerOf<typeof PingsRecordedSchema>> {
    const accountId = callingAccount(request);
    const { pings, ...single } = body;
    const batch = pings !== undefined;
    if (batch && Object.values(single).some((value) => value !== undefined)) {
      throw new InvalidParamError('send either one ping or {"pings": [...]}, not both', 'pings');
    }
    const { outcomes } = await this.commands.execute(new RecordPingBatchCommand(accountId, batch ? pings : [stripUndefined(single)]));
    if (!batch) {
      const [outcome] = outcomes;
      if (outcome.status === 'refused') {
        if (outcome.error.code === 'CONSENT_REQUIRED') throw new ConsentRequiredError(String(single.customer_id));
        throw new InvalidParamError(outcome.error.message, outcome.error.field ?? 'body');
      }
      return outcome;
    }
    const count = (status: string) => outcomes.filter((outcome) => outcome.status === status).length;
    return { items: outcomes, accepted: count('accepted'), duplicates: count('duplicate'), refused: count('refused') };
  }
}

function stripUndefined(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined));
}
