import { randomUUID } from 'node:crypto';
import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { OptionalKey, ReporterHash } from '../../../../platform/src/index.js';
import { greatCircleM } from '../../../../platform/src/geo/geodesy.js';
import type { HazardReported } from '../../domain/hazard.js';
import { TrafficView } from '../../traffic-view.js';
import { ReportIncidentCommand } from './report-incident.handler.js';
import { ReportIncidentRequest } from './report-incident.request.js';

/** interface.md: POST /v2/route/incidents, Public; the report goes live immediately. */
@ApiTags('routing')
@Controller('v2/route/incidents')
export class ReportIncidentController {
  constructor(
    private readonly commands: CommandBus,
    private readonly reporters: ReporterHash,
    private readonly view: TrafficView,
  ) {}

  @Post()
  @HttpCode(201)
  @OptionalKey()
  @ApiOperation({
    summary: 'Report a road hazard',
    description:
      'No key needed. `kind` is accident, flooding, road_blocked or police. Reports of one kind within 150 m merge into one incident; ' +
      '`corroborations` counts distinct reporters (a keyed hash of the client IP, or the account of a valid key). Lifetimes: police 2 h, accident 3 h, ' +
      'flooding 12 h, road_blocked 24 h, restarted by each new reporter. Routes with `avoid_incidents` avoid flooding and road_blocked incidents that 2 or more reporters confirmed. Throttled per IP.',
  })
  @ApiResponse({ status: 201, description: 'The incident the report joined: `{id, kind, lat, lng, note, corroborations, first_reported_at, last_reported_at, expires_at}`' })
  @ApiResponse({ status: 400, description: 'INVALID_PARAM naming `kind`, `lat`, `lng` or `note`' })
  @ApiResponse({ status: 429, description: 'RATE_LIMITED' })
  async report(@Body() body: ReportIncidentRequest, @Req() request: FastifyRequest) {
    const accountId = request.principal?.account_id;
    const reporter = this.reporters.of(accountId ? `account:${accountId}` : request.ip);
    const { events } = await this.commands.execute(
      new ReportIncidentCommand({ type: 'ReportHazard', report_id: randomUUID().replaceAll('-', ''), kind: body.kind, lat: body.lat, lng: body.lng, note: body.note, reporter }),
    );
    const reported = (events[0] as HazardReported).data;
    // The incident it joined (or opened): the nearest live one of its kind.
    const sameKind = this.view.board.active(new Date(reported.reported_at)).filter((incident) => incident.kind === reported.kind);
    const distance = (incident: (typeof sameKind)[number]) => greatCircleM(incident.lat, incident.lng, reported.lat, reported.lng);
    return sameKind.reduce((best, incident) => (distance(incident) < distance(best) ? incident : best), sameKind[0]);
  }
}
