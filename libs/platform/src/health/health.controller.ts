import { Controller, Get, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from '../http/access.js';
import { RawResponse } from '../http/envelope.js';
import { Readiness } from './readiness.js';

/** GET /health: 200 {"status":"ok"} when ready and every configured backend answers, else 503. */
@ApiExcludeController()
@Controller()
export class HealthController {
  constructor(private readonly readiness: Readiness) {}

  @Get('health')
  @Public()
  @RawResponse()
  async health(@Res() reply: FastifyReply): Promise<void> {
    if (!this.readiness.isReady) {
      const pending = this.readiness.pending;
      await reply.status(503).header('cache-control', 'no-store').send(pending.length > 0 ? { status: 'starting', pending } : { status: 'starting' });
      return;
    }
    const failing = await this.readiness.failing();
    if (failing.length > 0) {
      await reply.status(503).header('cache-control', 'no-store').send({ status: 'unavailable', failing });
      return;
    }
    await reply.status(200).header('cache-control', 'no-store').send({ status: 'ok' });
  }
}
