import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';

/**
 * Work a request starts but does not wait for, when waiting would tell the
 * caller something: POST /v2/auth/forgot-password answers at once and mails
 * (or not) afterwards, so its answer takes the same time whether the address
 * has an account or not. A task's failure cannot reach the caller, who has
 * had the generic answer already; it is logged. Shutdown waits for the tasks
 * in flight, before the event store and the mail queue close.
 */
@Injectable()
export class BackgroundTasks implements OnModuleDestroy {
  private readonly logger = new Logger('background');
  private readonly running = new Set<Promise<void>>();

  run(name: string, task: () => Promise<void>): void {
    const done: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(task)
      .catch((error: unknown) => this.logger.error({ msg: 'background task failed', task: name, err: error instanceof Error ? error.message : String(error) }))
      .finally(() => this.running.delete(done));
    this.running.add(done);
  }

  /** Resolves when every task started so far has finished (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  onModuleDestroy(): Promise<void> {
    return this.settled();
  }
}
