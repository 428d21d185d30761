import { parentPort } from 'node:worker_threads';
import type { FromThread, ThreadAnswer, ToThread } from './thread-messages.js';

/**
 * The body of a ThreadPool thread's entry module: runs each job it is sent
 * with `run`, one at a time (the pool sends a thread one job at a time), and
 * answers it. A job that throws is answered `failed`, and the thread goes on.
 */
export function serveThread<In, Out>(run: (input: In) => ThreadAnswer<Out> | Promise<ThreadAnswer<Out>>): void {
  const port = parentPort;
  if (!port) throw new Error('serveThread runs in a worker thread');
  const send = (message: FromThread<Out>, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);
  port.on('message', (message: ToThread<In>) => {
    if (message.kind !== 'run') return;
    const { id } = message;
    Promise.resolve()
      .then(() => run(message.input))
      .then(
        ({ output, transfer }) => send({ kind: 'done', id, output }, transfer),
        (error: unknown) => send({ kind: 'failed', id, error: error instanceof Error ? error.message : String(error) }),
      );
  });
  send({ kind: 'ready' });
}
