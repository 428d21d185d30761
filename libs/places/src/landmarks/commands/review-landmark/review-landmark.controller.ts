import { Body, Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { AdminOnly, ApiAnswer, type AnswerOf } from '../../../../../platform/src/index.js';
import { LandmarkReviewSchema } from './review-landmark.answer.js';
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
  @ApiAnswer(LandmarkReviewSchema, { requestExample: { decision: 'keep' } })
  @ApiResponse({ status: 400, description: 'INVALID_PARAM naming `decision`' })
  @ApiResponse({ status: 404, description: 'LANDMARK_NOT_FOUND' })
  @ApiResponse({ status: 403, description: 'ADMIN_KEY_REQUIRED: the deployment has no operator key configured' })
  @ApiResponse({ status: 409, description: 'CONCURRENCY_CONFLICT: the landmark kept changing under concurrent reports; send it again' })
  review(@Param('slug') slug: string, @Body() body: ReviewLandmarkRequest, @Req() request: FastifyRequest): Promise<AnswerOf<typeof LandmarkReviewSchema>> {
    return this.commands.execute(new ReviewLandmarkCommand(slug, body.decision, `admin:${request.principal?.key_prefix ?? 'unknown'}`));
  }
}
