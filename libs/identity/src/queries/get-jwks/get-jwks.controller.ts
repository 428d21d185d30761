import { Controller, Get, Header } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { QueryBus } from '@nestjs/cqrs';
import { Public, RawResponse } from '../../../../platform/src/index.js';
import { GetJwksQuery } from './get-jwks.handler.js';
import { ApiAnswer, type AnswerOf } from '../../../../platform/src/index.js';
import { JwksSchema } from './get-jwks.answer.js';

/**
 * decisions.md, "Fixed behaviour": GET /v2/.well-known/jwks.json is public
 * and outside the envelope, because JOSE libraries read a JWKS as it is.
 * A short cache: a verifier that sees an unknown kid after a rotation
 * refetches within a minute.
 */
@ApiTags('identity')
@Controller('v2/.well-known')
export class GetJwksController {
  constructor(private readonly queries: QueryBus) {}

  @Get('jwks.json')
  @Public()
  @RawResponse()
  @Header('Cache-Control', 'public, max-age=60')
  @ApiOperation({
    summary: 'The public keys that verify certificates and receipts (JWKS, RFC 7517)',
    description:
      'Bare JSON, not in the envelope. Ed25519 keys (`kty: OKP`, `crv: Ed25519`, `alg: EdDSA`, `use: sig`), the active one first; a rotated-out key stays for good, so every certificate and receipt ever issued keeps verifying offline (e.g. jose `createLocalJWKSet`).',
  })
  @ApiAnswer(JwksSchema, { raw: true })
  jwks(): Promise<AnswerOf<typeof JwksSchema>> {
    return this.queries.execute(new GetJwksQuery());
  }
}
