import type { Doc, Query, ReadCollection } from './read-store.port.js';

/** Visits every document a query finds, page by page (views loading themselves from a read model at start). */
export async function forEachDocument<T extends Doc>(collection: ReadCollection<T>, query: Omit<Query, 'cursor' | 'limit'>, visit: (doc: T) => void, pageSize = 1000): Promise<void> {
  let cursor: string | undefined;
  do {
    const page = await collection.find({ ...query, limit: pageSize, cursor } as Query);
    for (const doc of page.items) visit(doc);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
}
