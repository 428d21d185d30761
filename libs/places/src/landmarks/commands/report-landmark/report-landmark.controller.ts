import { Body, Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiResponse, ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { ApiAnswer, BodyBudget, OptionalKey, ReporterHash, type AnswerOf } from '../../../../../platform/src/index.js';
import { ReportLandmarkAnswerSchema } from './report-landmark.answer.js';
import { ReportLandmarkCommand } from './report-landmark.handler.js';
import { ReportLandmarkRequest } from './report-landmark.request.js';

/** interface.md, "Addresses, hex codes and search": POST /v2/landmarks/{slug}/report, Public; repeated reports reinforce one another. */
@ApiTags('landmarks')
@Controller('v2/landmarks/:slug/report')
export class ReportLandmarkController {
  constructor(
    private readonly commands: CommandBus,
    private readonly identity: ReporterHash,
  ) {}

  // reason and note (500 characters, each at most a 6-byte escape): refused while parsing past that (ADR 0034).
  @BodyBudget({ maxBytes: 4096, maxValues: 8, maxDepth: 1 })
  @Post()
  @HttpCode(200)
  @OptionalKey()
  @ApiParam({ name: 'slug', description: 'The landmark’s `slug` from a landmark answer' })
  @ApiOperation({
    summary: 'Report a problem with a landmark',
    description:
      'No key needed. A report counts once per reporter and reason within 30 days: the reporter is a keyed hash of the client IP (never the IP itself), ' +
      'and the account of a valid API key sent along (an unknown, revoked or expired key is ignored), so one account or one network is one reporter. Reports from different reporters reinforce one another (`corroborated_by`); ' +
      'when 3 different reporters say `wrong_landmark` within 30 days, the landmark is excluded from route narration (`narration_status: "excluded_pending_review"`) until an operator reviews it. ' +
      'Throttled per IP (10 a minute).',
  })
  @ApiAnswer(ReportLandmarkAnswerSchema, { requestExample: { reason: 'wrong_landmark', note: 'The market entrance is on the other side of the road' } })
  @ApiResponse({ status: 400, description: 'INVALID_PARAM naming `reason` or `note`' })
  @ApiResponse({ status: 404, description: 'LANDMARK_NOT_FOUND' })
  @ApiResponse({ status: 409, description: 'CONCURRENCY_CONFLICT: the landmark kept changing under concurrent reports; send it again' })
  @ApiResponse({ status: 429, description: 'RATE_LIMITED: too many reports from this IP' })
  report(@Param('slug') slug: string, @Body() body: ReportLandmarkRequest, @Req() request: FastifyRequest): Promise<AnswerOf<typeof ReportLandmarkAnswerSchema>> {
    return this.commands.execute(
      new ReportLandmarkCommand(slug, {
        reason: body.reason,
        ...(body.note?.trim() ? { note: body.note.trim() } : {}),
        reporter: this.identity.of(request.ip),
        // The guard names the account of a valid key sent along (@OptionalKey); any other key leaves the report anonymous.
        account_id: request.principal?.account_id ?? null,
      }),
    );
  }
}
