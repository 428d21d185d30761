/**
 * One sliced job on the event loop at a time (issue 31, docs/adr/0048).
 *
 * Work that must stay on the main thread (it reads this thread's views and
 * read store) runs in slices of about a millisecond (LoopSlicer). Two such
 * jobs in flight take turns with each other as well as with everyone else:
 * a request arriving meanwhile can wait behind a slice of each, and a
 * scavenge copies the half-built results of both. Through the lane they run
 * one after another instead: the same work, finished sooner each, with half
 * the live data at any moment.
 *
 * Waiting jobs take turns by owner (the account): when a job finishes, the
 * next owner in line runs one job and goes to the back of the line. One
 * owner's queue of jobs never holds another owner's job for more than one
 * of its own. How many jobs an owner can queue is bounded where the request
 * is admitted (EXPENSIVE_CONCURRENCY_PER_KEY), not here.
 */
export class LoopLane {
  private running = false;
  /** Waiting jobs by owner; the Map's order is the line. */
  private readonly waiting = new Map<string, Array<() => void>>();
  private queued = 0;

  /** Runs `job` when the lane is free and it is `owner`'s turn. */
  async run<T>(owner: string, job: () => Promise<T>): Promise<T> {
    if (this.running) await this.enqueue(owner);
    this.running = true;
    try {
      return await job();
    } finally {
      this.next();
    }
  }

  /** Jobs waiting for the lane (for the metrics). */
  get depth(): number {
    return this.queued;
  }

  private enqueue(owner: string): Promise<void> {
    return new Promise((resolve) => {
      const line = this.waiting.get(owner);
      if (line) line.push(resolve);
      else this.waiting.set(owner, [resolve]);
      this.queued++;
    });
  }

  /** Hands the lane to the first owner in line, who then goes to the back (or leaves it). */
  private next(): void {
    const first = this.waiting.entries().next();
    if (first.done) {
      this.running = false;
      return;
    }
    const [owner, line] = first.value;
    const resolve = line.shift()!;
    this.waiting.delete(owner);
    if (line.length > 0) this.waiting.set(owner, line);
    this.queued--;
    // The lane stays taken: the job resumes (a microtask) and runs.
    resolve();
  }
}
