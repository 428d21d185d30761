import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { CommandBus } from '@nestjs/cqrs';
import { AccountOnly } from '../../../../platform/src/index.js';
import { callingAccount } from '../../../../platform/src/index.js';
import { DEFAULT_PURPOSE, parseScope } from '../../domain/consent.js';
import { GrantConsentCommand } from './grant-consent.handler.js';
import { GrantConsentRequest } from './grant-consent.request.js';

/** interface.md, "Identity, consent, monitoring" and "Consent states". */
@ApiTags('monitoring')
@ApiSecurity('api_key')
@Controller('v2/consent')
export class GrantConsentController {
  constructor(private readonly commands: CommandBus) {}

  @Post('grant')
  @HttpCode(200)
  @AccountOnly()
  @ApiOperation({
    summary: "Record a customer's consent to location monitoring",
    description:
      'Granting after a revoke is a new grant; granting while granted replaces purpose and scope. A grant identical to the standing one changes nothing and answers it (granted_at included), so repeating a request is safe. Purpose defaults to unspecified, scope to ["location"].',
  })
  @ApiResponse({ status: 200, description: '`{customer_id, status: "granted", purpose, scope, granted_at}`' })
  @ApiResponse({ status: 400, description: 'INVALID_PARAM (field `customer_id`, `purpose` or `scope`)' })
  @ApiResponse({ status: 403, description: 'ACCOUNT_KEY_REQUIRED: customer ids belong to an account' })
  @ApiResponse({ status: 409, description: 'CONCURRENCY_CONFLICT: grants with different terms for this customer kept racing; read the status and retry' })
  async grant(@Req() request: FastifyRequest, @Body() body: GrantConsentRequest) {
    const accountId = callingAccount(request);
    const { state } = await this.commands.execute(
      new GrantConsentCommand({
        type: 'GrantConsent',
        account_id: accountId,
        customer_id: body.customer_id,
        purpose: body.purpose ?? DEFAULT_PURPOSE,
        scope: parseScope(body.scope),
      }),
    );
    if (state.status !== 'granted') throw new Error('a grant left the consent not granted');
    return { customer_id: body.customer_id, status: state.status, purpose: state.purpose, scope: state.scope, granted_at: state.granted_at };
  }
}
