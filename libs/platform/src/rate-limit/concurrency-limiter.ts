import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { BackendUnavailableError } from '../errors.js';

/** Gives a slot back; calling it again does nothing. */
export type Release = () => void;

/**
 * Slots held at once per key (issue 48): a key may hold at most `limit` of
 * them; `acquire` answers undefined when all are taken. Adapters: in this
 * process (REDIS_URL unset), and Redis, shared by every api process, where a
 * slot is a lease that expires unless its holder renews it, so a process that
 * dies gives its slots back within LEASE_MS.
 */
export interface ConcurrencyLimiter {
  acquire(key: string, limit: number): Promise<Release | undefined>;
  close(): Promise<void>;
}

/** How long a Redis slot outlives its holder's last renewal (renewed every third of it while held). */
export const LEASE_MS = 30_000;

export class InProcessConcurrencyLimiter implements ConcurrencyLimiter {
  private readonly held = new Map<string, number>();

  acquire(key: string, limit: number): Promise<Release | undefined> {
    const held = this.held.get(key) ?? 0;
    if (held >= limit) return Promise.resolve(undefined);
    this.held.set(key, held + 1);
    return Promise.resolve(
      once(() => {
        const left = (this.held.get(key) ?? 1) - 1;
        if (left > 0) this.held.set(key, left);
        else this.held.delete(key);
      }),
    );
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

/**
 * One sorted set per key: a member per slot, scored by its lease's expiry in
 * Redis's own time (TIME), so processes' clocks do not matter. The script
 * drops expired leases, then adds this one if fewer than `limit` remain.
 */
const ACQUIRE_LUA = `
local now = redis.call('TIME')
local nowMs = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', nowMs)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], nowMs + tonumber(ARGV[2]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]))
return 1`;

const RENEW_LUA = `
local now = redis.call('TIME')
local nowMs = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
if redis.call('ZADD', KEYS[1], 'XX', 'CH', nowMs + tonumber(ARGV[1]), ARGV[2]) == 1 then redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[1])) end
return 1`;

interface LeaseCommands {
  acquireLease(key: string, limit: string, leaseMs: string, member: string): Promise<number>;
  renewLease(key: string, leaseMs: string, member: string): Promise<number>;
}

export class RedisConcurrencyLimiter implements ConcurrencyLimiter {
  private readonly redis: Redis & LeaseCommands;
  private readonly renewals = new Set<NodeJS.Timeout>();

  constructor(
    redisUrl: string,
    private readonly prefix = 'concurrency:',
    private readonly leaseMs = LEASE_MS,
    onError: (error: unknown) => void = (error) => console.error('[redis-concurrency-limiter]', error),
  ) {
    // Connects on the first slot asked for: a process that serves no expensive request opens no connection.
    this.redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1, commandTimeout: 2000 }) as Redis & LeaseCommands;
    this.redis.on('error', onError);
    this.redis.defineCommand('acquireLease', { numberOfKeys: 1, lua: ACQUIRE_LUA });
    this.redis.defineCommand('renewLease', { numberOfKeys: 1, lua: RENEW_LUA });
  }

  async acquire(key: string, limit: number): Promise<Release | undefined> {
    const redisKey = this.prefix + key;
    const member = randomUUID();
    const taken = await this.call(() => this.redis.acquireLease(redisKey, String(limit), String(this.leaseMs), member));
    if (taken !== 1) return undefined;
    const renewal = setInterval(() => void this.redis.renewLease(redisKey, String(this.leaseMs), member).catch(() => undefined), Math.floor(this.leaseMs / 3));
    renewal.unref();
    this.renewals.add(renewal);
    return once(() => {
      clearInterval(renewal);
      this.renewals.delete(renewal);
      // A release that does not reach Redis is a lease that expires on its own.
      void this.redis.zrem(redisKey, member).catch(() => undefined);
    });
  }

  async close(): Promise<void> {
    for (const renewal of this.renewals) clearInterval(renewal);
    this.renewals.clear();
    if (this.redis.status === 'wait') {
      // Never connected (no slot was asked for): nothing to quit.
      this.redis.disconnect();
      return;
    }
    try {
      await this.redis.quit();
    } catch {
      this.redis.disconnect();
    }
  }

  private async call<T>(command: () => Promise<T>): Promise<T> {
    try {
      return await command();
    } catch (error) {
      throw new BackendUnavailableError(`Redis concurrency slots failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

/** Redis when a URL is configured (slots shared by every api process), in this process otherwise. */
export function openConcurrencyLimiter(options: { redisUrl?: string; onError?: (error: unknown) => void }): ConcurrencyLimiter {
  return options.redisUrl ? new RedisConcurrencyLimiter(options.redisUrl, undefined, undefined, options.onError) : new InProcessConcurrencyLimiter();
}

function once(release: () => void): Release {
  let released = false;
  return () => {
    if (released) return;
    released = true;
    release();
  };
}
