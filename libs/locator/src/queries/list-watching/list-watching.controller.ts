import { Controller, Get, Inject, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { AccountOnly, CLOCK, type Clock } from '../../../../platform/src/index.js';
import { AccountNames } from '../../account-names.js';
import { MAX_WATCHING } from '../../domain/share.js';
import { ShareDirectory } from '../../shares.read-model.js';
import { signedInAccount } from '../../signed-in.js';

/** interface.md, "Partner locator": GET /v2/locator/watching, whom the caller can see. */
@ApiTags('locator')
@ApiSecurity('api_key')
@Controller('v2/locator')
export class ListWatchingController {
  constructor(
    private readonly shares: ShareDirectory,
    private readonly names: AccountNames,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get('watching')
  @AccountOnly()
  @ApiOperation({ summary: 'Whose location you can see', description: `Your active pairings as a viewer (at most ${MAX_WATCHING}), oldest expiry first; revoked and expired ones are not listed.` })
  @ApiResponse({ status: 200, description: '`{items: [{pairing_id, target_id, target_name, paired_at, expires_at}]}`; `target_id` goes into GET /v2/locator/{targetId}/location' })
  @ApiResponse({ status: 403, description: 'ACCOUNT_KEY_REQUIRED or PERSONAL_TOKEN_REQUIRED' })
  async watching(@Req() request: FastifyRequest) {
    const viewer = signedInAccount(request);
    const pairings = await this.shares.watchedBy(viewer, this.clock.now(), MAX_WATCHING);
    return {
      items: pairings.map((doc) => ({
        pairing_id: doc.id,
        target_id: doc.owner_account_id,
        target_name: this.names.of(doc.owner_account_id),
        paired_at: doc.paired_at,
        expires_at: doc.expires_at,
      })),
    };
  }
}
