/** A backend whose reachability decides whether /health answers 200 or 503. */
export interface HealthCheck {
  name: string;
  ping(): Promise<void>;
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

  /** Pings every backend with a deadline; answers the failing ones. */
  async failing(timeoutMs = 1500): Promise<string[]> {
    const results = await Promise.all(
      this.checks.map(async (check) => {
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
