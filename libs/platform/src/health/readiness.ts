/** A backend whose reachability decides whether /health answers 200 or 503. */
export interface HealthCheck {
  name: string;
  ping(): Promise<void>;
  /** Asked only by GET /health/ready (docs/adr/0033), not by GET /health, whose answer is fixed by decisions.md. */
  readyOnly?: boolean;
}

/** What GET /health, /health/ready and the worker's health port answer: a status code and a bare JSON body. */
export interface HealthAnswer {
  status: 200 | 503;
  body: Record<string, unknown>;
}

/**
 * How long one round of backend pings answers every health request after it
 * (and every request while it runs). `/health` is public and not throttled,
 * as orchestrators and load balancers must always reach it; without this each
 * call sent a ping to every backend (MongoDB, Redis, a Kafka metadata request,
 * EventStoreDB), so a flood of `/health` was a flood on all of them. A backend
 * that goes down is reported at most this much later.
 */
export const HEALTH_PING_REUSE_MS = 500;

interface PingRound {
  failing: Promise<string[]>;
  /** When the round finished (monotonic ms); undefined while it runs. */
  finishedAt?: number;
}

/**
 * Flips to ready once the service accepts requests (decisions.md: 503 while
 * starting). Start-up work that goes on after the server listens (the starter
 * data import) holds readiness back until it releases its hold.
 */
export class Readiness {
  private ready = false;
  private readonly checks: HealthCheck[] = [];
  private readonly holds = new Map<symbol, string>();
  /** The last round of pings, for /health (false) and /health/ready (true). */
  private readonly rounds = new Map<boolean, PingRound>();

  constructor(private readonly reuseMs = HEALTH_PING_REUSE_MS) {}

  add(check: HealthCheck): void {
    this.checks.push(check);
  }
  markReady(): void {
    this.ready = true;
  }
  markStopping(): void {
    this.ready = false;
  }
  get isReady(): boolean {
    return this.ready && this.holds.size === 0;
  }

  /** Keeps the service not ready until the returned function is called (once is enough; more are harmless). */
  hold(name: string): () => void {
    const token = Symbol(name);
    this.holds.set(token, name);
    return () => {
      this.holds.delete(token);
    };
  }

  /** What start-up work is still holding readiness back. */
  get pending(): string[] {
    return [...new Set(this.holds.values())].sort();
  }

  /**
   * GET /health (`ready: false`): started, and every backend answers.
   * GET /health/ready (`ready: true`): the same, and the ready-only checks
   * (datasets live) pass. Liveness is not asked here: a process that answers
   * at all is alive.
   */
  async answer(options: { ready: boolean }): Promise<HealthAnswer> {
    if (!this.isReady) {
      const pending = this.pending;
      return { status: 503, body: pending.length > 0 ? { status: 'starting', pending } : { status: 'starting' } };
    }
    const failing = await this.failing(1500, options.ready);
    if (failing.length > 0) return { status: 503, body: { status: 'unavailable', failing } };
    return { status: 200, body: { status: 'ok' } };
  }

  /**
   * The failing backends: pinged with a deadline, once for every caller
   * that asks while a round runs or within `reuseMs` after it finished.
   */
  failing(timeoutMs = 1500, includeReadyOnly = false): Promise<string[]> {
    const last = this.rounds.get(includeReadyOnly);
    if (last && (last.finishedAt === undefined || performance.now() - last.finishedAt < this.reuseMs)) return last.failing;
    const round: PingRound = { failing: this.ping(timeoutMs, includeReadyOnly) };
    round.failing = round.failing.finally(() => {
      round.finishedAt = performance.now();
    });
    this.rounds.set(includeReadyOnly, round);
    return round.failing;
  }

  private async ping(timeoutMs: number, includeReadyOnly: boolean): Promise<string[]> {
    const results = await Promise.all(
      this.checks.filter((check) => includeReadyOnly || !check.readyOnly).map(async (check) => {
        try {
          await withDeadline(check.ping(), timeoutMs);
          return undefined;
        } catch {
          return check.name;
        }
      }),
    );
    return results.filter((name): name is string => name !== undefined);
  }
}

function withDeadline<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('deadline')), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}
