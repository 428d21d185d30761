import { Piscina } from 'piscina';

/*
 * The thread side of a WorkPool (work-pool.ts). Thread modules import this
 * file alone, not the platform's index: a thread loads piscina and its own
 * job, neither Nest nor a driver.
 */

/** What a thread's task function answers (serveTask wraps it): a job's own failure is told apart from the thread's. */
export type TaskReply<Out> = { ok: true; output: Out } | { ok: false; error: string };

/** A job's output, with the buffers to transfer rather than copy (they are unusable in the thread afterwards). */
export interface WorkAnswer<Out> {
  output: Out;
  transfer?: ArrayBuffer[];
}

/**
 * A pool thread's module exports `default serveTask(run)`: each task is one
 * call of `run`; its output's listed buffers are moved, not copied; a throw is
 * answered as the job's own failure (the thread goes on).
 */
export function serveTask<In, Out>(run: (input: In) => WorkAnswer<Out> | Promise<WorkAnswer<Out>>): (input: In) => Promise<unknown> {
  return async (input) => {
    try {
      const { output, transfer = [] } = await run(input);
      const reply: TaskReply<Out> = { ok: true, output };
      return transfer.length === 0 ? reply : Piscina.move({ [Piscina.transferableSymbol]: transfer, [Piscina.valueSymbol]: reply } as never);
    } catch (error) {
      return { ok: false, error: error instanceof Error ? error.message : String(error) } satisfies TaskReply<Out>;
    }
  };
}
