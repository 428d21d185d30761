import { evolveShareDoc, LOCATOR_SHARE_INDEXES, LOCATOR_SHARES_READ_MODEL, SHARE_EVENT_TYPES, type LocatorShareDoc, type ShareEvent } from '../../libs/locator/src/index.js';
import type { Projection } from '../../libs/platform/src/index.js';

/**
 * Every share of the partner locator, by share (= pairing) id: who can see
 * whom, live codes, revocations (libs/locator/src/shares.read-model.ts). The
 * share id travels in every event, so an event is applied to its document
 * whatever stream name the digest gave it.
 */
export const locatorSharesProjection: Projection<LocatorShareDoc> = {
  name: LOCATOR_SHARES_READ_MODEL.name,
  version: LOCATOR_SHARES_READ_MODEL.version,
  streamPrefixes: ['locator_share-'],
  handles: SHARE_EVENT_TYPES,
  indexes: LOCATOR_SHARE_INDEXES,
  async apply(event, collection) {
    const shareEvent = { type: event.type, data: event.data } as ShareEvent;
    await collection.apply(shareEvent.data.share_id, event.position, (current) => evolveShareDoc(current, event.streamName, shareEvent) ?? null);
  },
};
