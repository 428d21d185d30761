import { Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { AdminOnly } from '../../../../platform/src/index.js';
import { RotateSigningKeysCommand } from './rotate-signing-keys.handler.js';
import { ApiAnswer, type AnswerOf } from '../../../../platform/src/index.js';
import { RotationAnswerSchema } from './rotate-signing-keys.answer.js';

/** decisions.md, "Operator interface" and "Fixed behaviour": key rotation keeps old artefacts verifiable. */
@ApiTags('identity')
@ApiSecurity('api_key')
@Controller('v2/admin/signing-keys')
export class RotateSigningKeysController {
  constructor(private readonly commands: CommandBus) {}

  @Post('rotate')
  @HttpCode(200)
  @AdminOnly()
  @ApiOperation({
    summary: 'Rotate the signing key of certificates and receipts',
    description:
      'Generates a new Ed25519 key, which signs every certificate and receipt from this answer on; the previous key retires. ' +
      'Retired keys stay in GET /v2/.well-known/jwks.json for good, so everything they signed keeps verifying. Also `npm run ops -- signing-keys:rotate`.',
  })
  @ApiAnswer(RotationAnswerSchema)
  @ApiResponse({ status: 409, description: 'CONCURRENCY_CONFLICT: another rotation happened at the same moment (it took effect; rotate again only if another key is wanted)' })
  async rotate(@Req() request: FastifyRequest): Promise<AnswerOf<typeof RotationAnswerSchema>> {
    return this.commands.execute(new RotateSigningKeysCommand(`admin:${request.principal?.key_prefix ?? 'unknown'}`));
  }
}
