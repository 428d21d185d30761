import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Redis } from 'ioredis';
import { DirectoryInUseError, DirectoryLock } from './directory-lock.js';

/**
 * A lease one process of several holds at a time: the worker that holds the
 * `followers` lease runs every log follower that writes (projections, the
 * Kafka relay, the webhook fan-out, …); the others stand by (docs/production.md,
 * "Several workers").
 */
export interface Lease {
  /** Takes the lease, or renews it when this process holds it; true while it does. */
  tryHold(): Promise<boolean>;
  /** True while this process holds the lease and its term has not run out on this process's clock (the fence). */
  held(): boolean;
  /** Gives it up at once (a clean shutdown: a standby takes over without waiting out the term). */
  release(): Promise<void>;
}

const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

/**
 * `SET key token NX PX ttl`, renewed by its holder (compare-and-expire) and
 * released by it (compare-and-delete). The holder counts its term from before
 * it asked, less a margin for clocks that run at different speeds, so it
 * stops believing it holds the lease before Redis lets anyone else take it.
 * A holder that dies leaves the key to expire: a standby takes it at most
 * `ttlMs` later.
 */
export class RedisLease implements Lease {
  private readonly token = randomBytes(16).toString('hex');
  private validUntil = 0;

  constructor(
    private readonly redis: Pick<Redis, 'set' | 'eval' | 'quit'>,
    private readonly key: string,
    readonly ttlMs: number,
    private readonly marginMs = Math.min(1000, Math.floor(ttlMs / 5)),
  ) {}

  static open(url: string, name: string, ttlMs: number): RedisLease {
    const redis = new Redis(url, { maxRetriesPerRequest: 1 });
    // A Redis that is away only means the lease is not renewed: the fence stops the holder.
    redis.on('error', () => undefined);
    return new RedisLease(redis, `location-api:lease:${name}`, ttlMs);
  }

  async tryHold(): Promise<boolean> {
    const asked = Date.now();
    let timer: NodeJS.Timeout | undefined;
    const unanswered = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('lease: Redis did not answer')), Math.floor(this.ttlMs / 2));
    });
    try {
      const holds = await Promise.race([this.ask(), unanswered]);
      this.validUntil = holds ? asked + this.ttlMs - this.marginMs : 0;
    } catch {
      // Unanswered: the term runs out on its own clock.
    } finally {
      clearTimeout(timer);
    }
    return this.held();
  }

  private async ask(): Promise<boolean> {
    const renewed = this.validUntil > 0 ? Number(await this.redis.eval(RENEW, 1, this.key, this.token, String(this.ttlMs))) === 1 : false;
    return renewed || (await this.redis.set(this.key, this.token, 'PX', this.ttlMs, 'NX')) === 'OK';
  }

  held(): boolean {
    return Date.now() < this.validUntil;
  }

  async release(): Promise<void> {
    const was = this.validUntil > 0;
    this.validUntil = 0;
    try {
      if (was) await this.redis.eval(RELEASE, 1, this.key, this.token);
      await this.redis.quit();
    } catch {
      // The key expires on its own.
    }
  }
}

/**
 * Without Redis: a DirectoryLock on DATA_DIR/leases/<name>, which the kernel
 * lets go of the moment its holder dies (however it dies), so a standby on the
 * same machine takes over at its next try. Held until released: there is no
 * term to run out.
 */
export class DirectoryLease implements Lease {
  private lock?: DirectoryLock;
  private readonly dir: string;

  constructor(dataDir: string, name: string) {
    this.dir = path.join(dataDir, 'leases', name);
  }

  async tryHold(): Promise<boolean> {
    if (this.lock) return true;
    mkdirSync(this.dir, { recursive: true });
    try {
      this.lock = await DirectoryLock.acquire(this.dir, { what: 'Lease', waitMs: 0 });
    } catch (error) {
      if (!(error instanceof DirectoryInUseError)) throw error;
    }
    return this.lock !== undefined;
  }

  held(): boolean {
    return this.lock !== undefined;
  }

  async release(): Promise<void> {
    const lock = this.lock;
    this.lock = undefined;
    await lock?.release();
  }
}
