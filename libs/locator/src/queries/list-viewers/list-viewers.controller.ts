import { Controller, Get, Inject, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { AccountOnly, CLOCK, type Clock } from '../../../../platform/src/index.js';
import { AccountNames } from '../../account-names.js';
import { MAX_LIVE_CODES, MAX_VIEWERS } from '../../domain/share.js';
import { ShareDirectory } from '../../shares.read-model.js';
import { signedInAccount } from '../../signed-in.js';

/** interface.md, "Partner locator": GET /v2/locator/viewers, who can see the caller. */
@ApiTags('locator')
@ApiSecurity('api_key')
@Controller('v2/locator')
export class ListViewersController {
  constructor(
    private readonly shares: ShareDirectory,
    private readonly names: AccountNames,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get('viewers')
  @AccountOnly()
  @ApiOperation({
    summary: 'Who can see your location',
    description:
      `Your active pairings (at most ${MAX_VIEWERS}), oldest expiry first, and your unused share codes that can still be redeemed (at most ${MAX_LIVE_CODES}; the codes themselves are never shown again). ` +
      'Revoked and expired pairings and expired codes are not listed.',
  })
  @ApiResponse({
    status: 200,
    description: '`{items: [{pairing_id, viewer_id, viewer_name, label, paired_at, expires_at}], pending_codes: [{share_id, label, issued_at, expires_at, share_for_s}]}`',
  })
  @ApiResponse({ status: 403, description: 'ACCOUNT_KEY_REQUIRED or PERSONAL_TOKEN_REQUIRED' })
  async viewers(@Req() request: FastifyRequest) {
    const owner = signedInAccount(request);
    const now = this.clock.now();
    const [pairings, codes] = await Promise.all([this.shares.viewersOf(owner, now, MAX_VIEWERS), this.shares.liveCodes(owner, now, MAX_LIVE_CODES)]);
    return {
      items: pairings.map((doc) => ({
        pairing_id: doc.id,
        viewer_id: doc.viewer_account_id,
        viewer_name: doc.viewer_account_id ? this.names.of(doc.viewer_account_id) : null,
        label: doc.label,
        paired_at: doc.paired_at,
        expires_at: doc.expires_at,
      })),
      pending_codes: codes.map((doc) => ({ share_id: doc.id, label: doc.label, issued_at: doc.issued_at, expires_at: doc.code_expires_at, share_for_s: doc.share_for_s })),
    };
  }
}
