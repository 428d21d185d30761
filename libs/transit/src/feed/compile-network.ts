import type { DatasetStore, DatasetVersion } from '../../../platform/src/index.js';
import type { FeedRecord } from '../domain/feed-records.js';
import { TransitNetwork } from '../domain/network.js';

/**
 * A version's records compiled for RAPTOR, as the main thread (TransitFeeds)
 * and each planner thread do it: the same records in the same order give the
 * same stop, trip and pattern numbers, so a plan made in one reads right in
 * the other. DatasetCorruptError when the records fail their count or checksum.
 */
export async function compileNetwork(store: DatasetStore, version: DatasetVersion): Promise<TransitNetwork> {
  const records: FeedRecord[] = [];
  for await (const record of store.records<FeedRecord>(version)) records.push(record);
  return new TransitNetwork(records);
}
