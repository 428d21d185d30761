import { createHash } from 'node:crypto';
import type { Doc, ReadCollection, ReadStore } from '../../../platform/src/index.js';

/** How one feed's polls went. A feed is named by its origin and path only: a query string may hold a subscription token. */
export interface FeedPoll {
  feed: string;
  last_attempt_at: string | null;
  last_success_at: string | null;
  last_error: string | null;
}

interface FeedPollDoc extends Doc, FeedPoll {}

/** The read-store collection the worker's poller writes and the api's alerts query reads (docs/adr/0026). */
export const FEED_POLLS_COLLECTION = 'weather_feed_polls';

/** What a configured feed URL is shown as. */
export function feedName(feed: string): string {
  const url = new URL(feed);
  return `${url.origin}${url.pathname}`;
}

/**
 * How the CAP feed polls went, kept in the read store: the worker polls
 * (background work runs in the worker role only) and GET /v2/weather/alerts,
 * served by the api processes, says so, so an empty list is read right. A
 * document per configured feed, keyed by a hash of its whole URL (the
 * query string is never stored).
 */
export class FeedPolls {
  private collection?: Promise<ReadCollection<FeedPollDoc>>;
  private sequence = 0n;

  constructor(
    private readonly readStore: ReadStore,
    private readonly feeds: readonly string[],
  ) {}

  get configured(): boolean {
    return this.feeds.length > 0;
  }

  /** Records a poll's outcome; a later write wins (positions are the wall clock in microseconds, then a counter). */
  async record(feed: string, poll: Omit<FeedPoll, 'feed'>): Promise<void> {
    const id = FeedPolls.idOf(feed);
    const position = BigInt(Date.now()) * 1000n + (this.sequence++ % 1000n);
    await (await this.open()).apply(id, position, () => ({ id, feed: feedName(feed), ...poll }));
  }

  /** Every configured feed and its last poll (nulls before the first). */
  async list(): Promise<FeedPoll[]> {
    if (this.feeds.length === 0) return [];
    const collection = await this.open();
    return Promise.all(
      this.feeds.map(async (feed) => {
        const doc = await collection.get(FeedPolls.idOf(feed));
        return { feed: feedName(feed), last_attempt_at: doc?.last_attempt_at ?? null, last_success_at: doc?.last_success_at ?? null, last_error: doc?.last_error ?? null };
      }),
    );
  }

  private open(): Promise<ReadCollection<FeedPollDoc>> {
    return (this.collection ??= this.readStore.collection<FeedPollDoc>(FEED_POLLS_COLLECTION));
  }

  private static idOf(feed: string): string {
    return createHash('sha256').update(feed).digest('hex').slice(0, 32);
  }
}
