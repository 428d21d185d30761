import type { ExpectedRevision } from './event-store.port.js';
import { ConcurrencyError } from './errors.js';

/**
 * How a revision appears in a ConcurrencyError. Both adapters use this so a
 * 409 reads the same whichever store answered: `no_stream`, `stream_exists`,
 * `any`, or the decimal revision.
 */
export function revisionLabel(revision: ExpectedRevision | undefined): string {
  if (revision === undefined) return 'no_stream';
  return typeof revision === 'bigint' ? revision.toString() : revision;
}

/**
 * The expected-revision rule of the port, given the stream's current last
 * revision (`undefined` when the stream does not exist or was deleted).
 * Returns the error to throw, or undefined when the write may proceed.
 */
export function checkExpectedRevision(
  stream: string,
  expected: ExpectedRevision,
  current: bigint | undefined,
): ConcurrencyError | undefined {
  const ok =
    expected === 'any' ||
    (expected === 'no_stream' && current === undefined) ||
    (expected === 'stream_exists' && current !== undefined) ||
    (typeof expected === 'bigint' && current === expected);
  return ok ? undefined : new ConcurrencyError(stream, revisionLabel(expected), revisionLabel(current));
}
