import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { CommandBus } from '@nestjs/cqrs';
import { AccountOnly, InvalidParamError } from '../../../../platform/src/index.js';
import { callingAccount } from '../../../../platform/src/index.js';
import { DEFAULT_PURPOSE, parseScope, type NoticeReference } from '../../domain/consent.js';
import { noticeDigest } from '../../domain/consent-notice.js';
import { GrantConsentCommand } from '../../public/consent-commands.js';
import { GrantConsentRequest, type ConsentNoticeRequest } from './grant-consent.request.js';
import { consentStatusView } from '../../consent-record/consent-status.view.js';
import { ApiAnswer, type AnswerOf } from '../../../../platform/src/index.js';
import { ConsentGrantedSchema } from './grant-consent.answer.js';

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
      'Granting after a revoke is a new grant; granting while granted replaces its terms. A grant identical to the standing one changes nothing and answers it (granted_at and receipt included), so repeating a request is safe. Purpose defaults to unspecified, scope to ["location"]. ' +
      'Capture what the customer agreed to and how (docs/adr/0032): `notice` {version, sha256 of its exact text, language}, or {version, language, text} (the service computes the SHA-256 of the text\'s UTF-8 bytes and keeps the hash, not the text), or {version} alone for a version registered with PUT /v2/consent/notices/{version} (docs/adr/0059); `channel` (app, ussd, web, paper, agent), `captured_at` (the customer\'s time: not before the account was opened, nor over 5 minutes ahead), optional `proof` {kind: otp | device_signature, reference: printable ASCII}; absent fields read `unspecified`. ' +
      'The answer carries a signed consent `receipt`: a compact JWS (EdDSA, typ consent-receipt+jwt) whose claims follow the Kantara Consent Receipt v1.1, verifiable offline against GET /v2/.well-known/jwks.json (scripts/verify-consent-receipt.mjs).',
  })
  @ApiAnswer(ConsentGrantedSchema, { requestExample: { customer_id: 'cust-8841', purpose: 'loan_collections', scope: ['location'], notice: { version: 'loan-monitoring-2026-10', sha256: '3f8a1c0e9b7d5a2f4e6c8b0a1d3f5e7c9b2a4d6f8e0c1b3a5d7f9e2c4b6a8d0f', language: 'en-GH' }, channel: 'app', captured_at: '2026-11-27T08:58:10Z', proof: { kind: 'otp', reference: 'otp-7731-20261127' } } })
  @ApiResponse({ status: 400, description: 'INVALID_PARAM (field `customer_id`, `purpose`, `scope`, `notice.*`, `channel`, `captured_at` or `proof.*`)' })
  @ApiResponse({
    status: 422,
    description: 'NOTICE_MISMATCH (field `notice.sha256` or `notice.text`): not the hash of the notice registered under that version and language; NOTICE_NOT_REGISTERED (field `notice.version`): a version not registered, sent without its sha256 or text',
  })
  @ApiResponse({ status: 403, description: 'ACCOUNT_KEY_REQUIRED: customer ids belong to an account' })
  @ApiResponse({ status: 409, description: 'CONCURRENCY_CONFLICT: grants with different terms for this customer kept racing; read the status and retry' })
  async grant(@Req() request: FastifyRequest, @Body() body: GrantConsentRequest): Promise<AnswerOf<typeof ConsentGrantedSchema>> {
    const accountId = callingAccount(request);
    // The handler records the grant and signs its receipt (docs/adr/0064); this door shapes the answer.
    const { state, receipt } = await this.commands.execute(
      new GrantConsentCommand({
        type: 'GrantConsent',
        account_id: accountId,
        customer_id: body.customer_id,
        purpose: body.purpose ?? DEFAULT_PURPOSE,
        scope: parseScope(body.scope),
        ...(body.notice ? { notice_ref: noticeReference(body.notice) } : {}),
        ...(body.channel ? { channel: body.channel } : {}),
        ...(body.captured_at ? { captured_at: new Date(body.captured_at).toISOString() } : {}),
        ...(body.proof ? { proof: { kind: body.proof.kind, reference: body.proof.reference } } : {}),
      }),
    );
    return { ...consentStatusView(body.customer_id, state, accountId), receipt };
  }
}

/**
 * The notice as the caller named it (docs/adr/0059): a text is hashed here, over its UTF-8 bytes, and goes
 * no further; a hash sent with it must be that hash. The registry is consulted by the command's `prepare`.
 */
function noticeReference(notice: ConsentNoticeRequest): NoticeReference {
  const { version, language, sha256, text } = notice;
  const reference: NoticeReference = { version, ...(language !== undefined ? { language } : {}) };
  if (text === undefined) return sha256 !== undefined ? { ...reference, sha256 } : reference;
  const digest = noticeDigest(text, 'notice.text');
  if (sha256 !== undefined && sha256 !== digest.sha256) throw new InvalidParamError(`notice.sha256 is not the SHA-256 of notice.text (${digest.sha256}); send either, or both agreeing`, 'notice.sha256');
  return { ...reference, sha256: digest.sha256, from_text: true };
}
