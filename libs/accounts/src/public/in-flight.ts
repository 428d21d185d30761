import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CONFIG, JsonLogger, openConcurrencyLimiter, type ConcurrencyLimiter, type Config, type Release } from '../../../platform/src/index.js';

/**
 * Expensive requests in flight per key (issue 31, item 2; issue 48, item 3):
 * one key's bulk calls hold at most EXPENSIVE_CONCURRENCY_PER_KEY of them at
 * once, so one tenant cannot queue the service's whole capacity. With
 * REDIS_URL the slots are leases in Redis, shared by every api process (a
 * process that dies gives its slots back when their leases run out); without
 * it they are counted in this process.
 *
 * The per-IP gate takes the slot before the body is read, for a route that is
 * expensive whatever its body; the key guard takes it after, for one that is
 * expensive for some bodies (`@Expensive({ when })`). A request holds its slot
 * until its answer is sent or its client goes.
 */
@Injectable()
export class InFlight implements OnModuleDestroy {
  readonly max: number;
  private readonly limiter: ConcurrencyLimiter;
  private readonly taken = new WeakMap<FastifyRequest, Release>();

  constructor(@Inject(CONFIG) config: Pick<Config, 'expensiveConcurrencyPerKey' | 'redisUrl'>, logger: JsonLogger) {
    this.max = config.expensiveConcurrencyPerKey;
    this.limiter = openConcurrencyLimiter({ redisUrl: config.redisUrl, onError: (error) => logger.error({ msg: 'concurrency slots: Redis connection error', err: String(error) }) });
  }

  /**
   * A slot of `keyId` for `request` (the one it already holds, if any), given back once the answer is sent or the
   * client goes, or earlier by calling it; undefined when the key holds all of its slots.
   */
  async take(request: FastifyRequest, reply: FastifyReply, keyId: string): Promise<Release | undefined> {
    const held = this.taken.get(request);
    if (held) return held;
    const release = await this.limiter.acquire(`key:${keyId}`, this.max);
    if (!release) return undefined;
    this.taken.set(request, release);
    reply.raw.once('close', release);
    return release;
  }

  onModuleDestroy(): Promise<void> {
    return this.limiter.close();
  }
}
