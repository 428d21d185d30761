/**
 * lmdb-js options for an LMDB environment that several processes write at
 * once: the embedded event store and the embedded read store (the job queue
 * and the rate limiter hold a directory lock, so one process each).
 *
 * `overlappingSync: false`. lmdb-js's default lets the next write transaction
 * start while the last one's fsync is still running. With two processes
 * appending to one stream, about one run in 25 lost an acknowledged write: a
 * process was told revision n was stored, and the next transaction (its own or
 * the other process's) started from the state before it and wrote its event
 * at the same position, so the first was gone for every reader. Without
 * overlapping syncs, 220 runs of the same stress lost nothing (ADR 0046).
 * Each commit now syncs before the write lock is released; group commit still
 * shares one fsync between the writes queued together.
 */
export const WRITTEN_BY_SEVERAL_PROCESSES = { overlappingSync: false } as const;
