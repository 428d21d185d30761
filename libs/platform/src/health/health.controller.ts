import { Controller, Get, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from '../http/access.js';
import { RawResponse } from '../http/envelope.js';
import { Readiness, type HealthAnswer } from './readiness.js';

/**
 * GET /health: 200 {"status":"ok"} when started and every configured backend
 * answers, else 503 (decisions.md). GET /health/ready adds the ready-only
 * checks (datasets live); GET /health/live answers 200 while the process can
 * answer at all, so an orchestrator restarts only a hung process, and only
 * routes traffic to a ready one (docs/adr/0033).
 */
@ApiExcludeController()
@Controller()
export class HealthController {
  constructor(private readonly readiness: Readiness) {}

  @Get('health')
  @Public()
  @RawResponse()
  async health(@Res() reply: FastifyReply): Promise<void> {
    await send(reply, await this.readiness.answer({ ready: false }));
  }

  @Get('health/ready')
  @Public()
  @RawResponse()
  async ready(@Res() reply: FastifyReply): Promise<void> {
    await send(reply, await this.readiness.answer({ ready: true }));
  }

  @Get('health/live')
  @Public()
  @RawResponse()
  async live(@Res() reply: FastifyReply): Promise<void> {
    await send(reply, { status: 200, body: { status: 'alive' } });
  }
}

async function send(reply: FastifyReply, answer: HealthAnswer): Promise<void> {
  await reply.status(answer.status).header('cache-control', 'no-store').send(answer.body);
}
