import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EmbeddedEventStore } from './embedded/embedded-event-store.js';
import { storedEventAt } from './stored-event.js';

describe('storedEventAt (what a webhook attempt reads back)', () => {
  it('answers the event at the revision only while it is the notified one', async () => {
    const events = await EmbeddedEventStore.open(mkdtempSync(path.join(tmpdir(), 'stored-event-')));
    try {
      await events.append('thing-1', [{ type: 'A', data: { n: 1 } }, { type: 'B', data: { n: 2 } }], 'no_stream');
      const [first, second] = await events.readStream('thing-1');
      expect((await storedEventAt(events, { stream: 'thing-1', revision: '1', event_id: second.id }))?.data).toEqual({ n: 2 });
      expect(await storedEventAt(events, { stream: 'thing-1', revision: 1n, event_id: first.id })).toBeUndefined();
      expect(await storedEventAt(events, { stream: 'thing-1', revision: '5', event_id: second.id })).toBeUndefined();
      expect(await storedEventAt(events, { stream: 'thing-2', revision: '0', event_id: first.id })).toBeUndefined();
      await events.deleteStream('thing-1');
      expect(await storedEventAt(events, { stream: 'thing-1', revision: '1', event_id: second.id })).toBeUndefined();
    } finally {
      await events.close();
    }
  });
});
