import { InvalidQueryError } from './errors.js';
import { MAX_LIMIT } from './query-plan.js';
import type { Doc, Page, Query } from './read-store.port.js';

/**
 * `ReadCollection.scan` over `find`: pages of `batch` documents, following
 * the cursor; `between` runs before every page after the first (the
 * embedded store's turn of the loop; nothing for MongoDB, whose next page is
 * a round trip).
 */
export async function* scanPages<T extends Doc>(
  find: (query: Query) => Promise<Page<T>>,
  query: Omit<Query, 'limit' | 'cursor'>,
  batch: number | undefined,
  between?: () => Promise<void>,
): AsyncGenerator<T[]> {
  let cursor: string | undefined;
  do {
    if (cursor !== undefined && between) await between();
    const page = await find({ ...query, ...(batch !== undefined ? { limit: batch } : {}), ...(cursor !== undefined ? { cursor } : {}) } as Query);
    if (page.items.length > 0) yield page.items;
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
}

/** The ids of a `getMany`: at most MAX_LIMIT, like a page. */
export function checkManyIds(ids: readonly string[]): void {
  if (ids.length > MAX_LIMIT) throw new InvalidQueryError(`at most ${MAX_LIMIT} ids a read`, 'ids');
}
