import { Controller, Delete, HttpCode, Param, Req } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { AccountOnly, InvalidParamError, ApiAnswer, type AnswerOf } from '../../../../platform/src/index.js';
import type { PairingSide } from '../../domain/share.js';
import { signedInAccount } from '../../signed-in.js';
import { RevokePairingCommand } from './revoke-pairing.handler.js';
import { RevokePairingAnswerSchema } from './revoke-pairing.answer.js';

const PAIRING_ID = /^shr_[0-9a-f]{32}$/;

/** interface.md, "Partner locator": pairing → revoked; only that one pairing, other shares untouched. */
@ApiTags('locator')
@ApiSecurity('api_key')
@Controller('v2/locator')
export class RevokePairingController {
  constructor(private readonly commands: CommandBus) {}

  @Delete('viewers/:pairingId')
  @HttpCode(200)
  @AccountOnly()
  @ApiOperation({ summary: 'Stop one viewer seeing your location', description: 'Takes effect at once: from this answer on, that viewer gets LOCATION_NOT_SHARED. Your other pairings and live codes are untouched.' })
  @ApiParam({ name: 'pairingId', description: 'From GET /v2/locator/viewers', example: 'shr_0f5c2a9e4b7d4c1e8a3f6b2d9c0e1a7b' })
  @ApiAnswer(RevokePairingAnswerSchema)
  @ApiResponse({ status: 400, description: 'INVALID_PARAM (`pairingId` is not a pairing id)' })
  @ApiResponse({ status: 403, description: 'ACCOUNT_KEY_REQUIRED or PERSONAL_TOKEN_REQUIRED' })
  @ApiResponse({ status: 404, description: 'PAIRING_NOT_FOUND: not a pairing in which you are seen, or already revoked or expired' })
  revokeViewer(@Req() request: FastifyRequest, @Param('pairingId') pairingId: string): Promise<AnswerOf<typeof RevokePairingAnswerSchema>> {
    return this.revoke(signedInAccount(request), pairingId, 'owner');
  }

  /** Not in interface.md: a viewer may end a pairing from their side too (the same revocation, recorded as the viewer's). */
  @Delete('watching/:pairingId')
  @HttpCode(200)
  @AccountOnly()
  @ApiOperation({ summary: 'Stop seeing one person', description: 'Ends the pairing from the viewer side; the owner no longer lists you as a viewer.' })
  @ApiParam({ name: 'pairingId', description: 'From GET /v2/locator/watching', example: 'shr_0f5c2a9e4b7d4c1e8a3f6b2d9c0e1a7b' })
  @ApiAnswer(RevokePairingAnswerSchema)
  @ApiResponse({ status: 400, description: 'INVALID_PARAM (`pairingId` is not a pairing id)' })
  @ApiResponse({ status: 403, description: 'ACCOUNT_KEY_REQUIRED or PERSONAL_TOKEN_REQUIRED' })
  @ApiResponse({ status: 404, description: 'PAIRING_NOT_FOUND: not a pairing in which you watch, or already revoked or expired' })
  stopWatching(@Req() request: FastifyRequest, @Param('pairingId') pairingId: string): Promise<AnswerOf<typeof RevokePairingAnswerSchema>> {
    return this.revoke(signedInAccount(request), pairingId, 'viewer');
  }

  private async revoke(actor: string, pairingId: string, side: PairingSide): Promise<AnswerOf<typeof RevokePairingAnswerSchema>> {
    if (!PAIRING_ID.test(pairingId)) throw new InvalidParamError('pairingId is a pairing id (shr_ and 32 hex digits)', 'pairingId');
    return this.commands.execute(new RevokePairingCommand(actor, pairingId, side));
  }
}
