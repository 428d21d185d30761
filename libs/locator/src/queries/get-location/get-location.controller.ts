import { Controller, Get, Param, Req } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { AccountOnly, InvalidParamError, ApiAnswer, type AnswerOf } from '../../../../platform/src/index.js';
import { signedInAccount } from '../../signed-in.js';
import { GetLocationQuery } from './get-location.handler.js';
import { GetLocationAnswerSchema } from './get-location.answer.js';

const ACCOUNT_ID = /^acct_[A-Za-z0-9]{1,64}$/;

/** interface.md, "Partner locator": GET /v2/locator/{targetId}/location, the last-known position of a paired target. */
@ApiTags('locator')
@ApiSecurity('api_key')
@Controller('v2/locator')
export class GetLocationController {
  constructor(private readonly queries: QueryBus) {}

  @Get(':targetId/location')
  @AccountOnly()
  @ApiOperation({
    summary: 'The last-known position of someone who shares it with you',
    description:
      'For a target you are paired with (GET /v2/locator/watching), or yourself: their latest check-in with its age in seconds, or `position: null` before their first check-in or after they erased their data. ' +
      'Anything else — never paired, revoked, expired, no such account — is one answer, 404 LOCATION_NOT_SHARED, which says nothing about whether the target exists.',
  })
  @ApiParam({ name: 'targetId', description: "The target's account id (`target_id` in GET /v2/locator/watching)", example: 'acct_3f9c2a7b1e4d5c6a8b90' })
  @ApiAnswer(GetLocationAnswerSchema)
  @ApiResponse({ status: 400, description: 'INVALID_PARAM (`targetId` is not an account id)' })
  @ApiResponse({ status: 403, description: 'ACCOUNT_KEY_REQUIRED or PERSONAL_TOKEN_REQUIRED' })
  @ApiResponse({ status: 404, description: 'LOCATION_NOT_SHARED' })
  location(@Req() request: FastifyRequest, @Param('targetId') targetId: string): Promise<AnswerOf<typeof GetLocationAnswerSchema>> {
    const viewer = signedInAccount(request);
    if (!ACCOUNT_ID.test(targetId)) throw new InvalidParamError('targetId is an account id (acct_…)', 'targetId');
    return this.queries.execute(new GetLocationQuery(viewer, targetId));
  }
}
