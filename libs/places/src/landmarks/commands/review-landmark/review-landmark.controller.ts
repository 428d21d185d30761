import { Body, Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { AdminOnly } from '../../../../../platform/src/index.js';
import { ReviewLandmarkCommand } from './review-landmark.handler.js';
import { ReviewLandmarkRequest } from './review-landmark.request.js';

/** The operator's review of a reported landmark (interface.md, "States and transitions": excluded "until reviewed"); also `npm run ops -- landmarks:review`. */
@ApiTags('admin')
@ApiSecurity('api_key')
@Controller('v2/admin/landmarks/:slug/review')
export class ReviewLandmarkController {
  constructor(private readonly commands: CommandBus) {}

  @Post()
  @HttpCode(200)
  @AdminOnly()
  @ApiParam({ name: 'slug' })
  @ApiOperation({ summary: 'Keep or exclude a landmark from route narration', description: 'Recorded as an event on the landmark’s stream, with the operator key’s prefix.' })
  @ApiResponse({ status: 200, description: '`{slug, name, decision, reports, narration_status, excluded_from_narration, excluded_at, reviewed_at}`' })
  @ApiResponse({ status: 400, description: 'INVALID_PARAM naming `decision`' })
  @ApiResponse({ status: 404, description: 'LANDMARK_NOT_FOUND' })
  @ApiResponse({ status: 409, description: 'CONCURRENCY_CONFLICT: the landmark kept changing under concurrent reports; send it again' })
  review(@Param('slug') slug: string, @Body() body: ReviewLandmarkRequest, @Req() request: FastifyRequest) {
    return this.commands.execute(new ReviewLandmarkCommand(slug, body.decision, `admin:${request.principal?.key_prefix ?? 'unknown'}`));
  }
}
