import { EventEmitter } from 'node:events';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { JsonLogger } from '../../../platform/src/index.js';
import { InFlight } from './in-flight.js';

const exchange = () => {
  const raw = new EventEmitter();
  return { request: {} as FastifyRequest, reply: { raw } as unknown as FastifyReply, close: () => raw.emit('close') };
};

describe('InFlight: expensive requests in flight per key', () => {
  const inFlight = new InFlight({ expensiveConcurrencyPerKey: 2, redisUrl: undefined }, new JsonLogger('silent'));
  afterAll(() => inFlight.onModuleDestroy());

  it('gives a key at most max slots, keeps one per request, and takes one back when its answer closes', async () => {
    const [a, b, c, other] = [exchange(), exchange(), exchange(), exchange()];
    const first = await inFlight.take(a.request, a.reply, 'k1');
    expect(first).toBeDefined();
    // The guard asks again for the same request: the slot it already holds, not a second.
    expect(await inFlight.take(a.request, a.reply, 'k1')).toBe(first);
    expect(await inFlight.take(b.request, b.reply, 'k1')).toBeDefined();
    expect(await inFlight.take(c.request, c.reply, 'k1')).toBeUndefined();
    expect(await inFlight.take(other.request, other.reply, 'k2')).toBeDefined();
    a.close();
    // Released twice (closed, then by hand): one slot back, not two.
    first!();
    expect(await inFlight.take(c.request, c.reply, 'k1')).toBeDefined();
    const d = exchange();
    expect(await inFlight.take(d.request, d.reply, 'k1')).toBeUndefined();
  });
});
