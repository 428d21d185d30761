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
 * Flips to ready once the service accepts requests (decisions.md: 503 while
 * starting). Start-up work that goes on after the server listens (the starter
 * data import) holds readiness back until it releases its hold.
 */
export class Readiness {
  private ready = false;
  private readonly checks: HealthCheck[] = [];
  private readonly holds = new Map<symbol, string>();

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

  /** Pings every backend with a deadline; answers the failing ones. */
  async failing(timeoutMs = 1500, includeReadyOnly = false): Promise<string[]> {
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
