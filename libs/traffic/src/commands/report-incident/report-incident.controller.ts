import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { ApiAnswer, BodyBudget, OptionalKey, type AnswerOf } from '../../../../platform/src/index.js';
import { ReportIncidentAnswerSchema } from './report-incident.answer.js';
import { ReportIncidentCommand } from './report-incident.handler.js';
import { ReportIncidentRequest } from './report-incident.request.js';

/** interface.md: POST /v2/route/incidents, Public; the report goes live immediately. */
@ApiTags('routing')
@Controller('v2/route/incidents')
export class ReportIncidentController {
  constructor(private readonly commands: CommandBus) {}

  // kind, lat, lng, note (280 characters, each at most a 6-byte escape): refused while parsing past that (ADR 0034).
  @BodyBudget({ maxBytes: 4096, maxValues: 8, maxDepth: 1 })
  @Post()
  @HttpCode(201)
  @OptionalKey()
  @ApiOperation({
    summary: 'Report a road hazard',
    description:
      'No key needed. `kind` is accident, flooding, road_blocked or police. Reports of one kind within 150 m merge into one incident; ' +
      '`corroborations` counts distinct reporters: a reporter is the client IP (a keyed hash) together with the account of a valid key sent along, and reports sharing an IP or an account are one reporter, so one client with and without its key counts once. Lifetimes: police 2 h, accident 3 h, ' +
      'flooding 12 h, road_blocked 24 h, restarted by each new reporter. Routes with `avoid_incidents` avoid flooding and road_blocked incidents that 2 or more reporters confirmed. Throttled per IP.',
  })
  @ApiAnswer(ReportIncidentAnswerSchema, { status: 201, description: '`data` is the incident the report joined (or opened)', requestExample: { kind: 'flooding', lat: 5.5713, lng: -0.2127, note: 'Water over the road at Kaneshie first light' } })
  @ApiResponse({ status: 400, description: 'INVALID_PARAM naming `kind`, `lat`, `lng` or `note`' })
  @ApiResponse({ status: 429, description: 'RATE_LIMITED: too many reports from this IP; wait Retry-After seconds' })
  async report(@Body() body: ReportIncidentRequest, @Req() request: FastifyRequest): Promise<AnswerOf<typeof ReportIncidentAnswerSchema>> {
    return this.commands.execute(new ReportIncidentCommand({ kind: body.kind, lat: body.lat, lng: body.lng, note: body.note }, { accountId: request.principal?.account_id ?? null, keyPrefix: request.principal?.key_prefix ?? null, ip: request.ip }));
  }
}
