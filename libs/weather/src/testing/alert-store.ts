import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EmbeddedEventStore, EventRegistry, systemClock, type Clock } from '../../../platform/src/index.js';
import { AlertRecorder } from '../public/alert-log.js';
import { CapAlertView } from '../public/alert-view.js';
import { CAP_ALERTS_STREAM } from '../domain/cap-alerts.js';
import { weatherEventTypes } from '../event-types.js';

/** The alert stream on a real embedded event store in a fresh folder: the record-alerts command writes, the follower view reads. */
export async function alertStore(clock: Clock = systemClock) {
  const events = await EmbeddedEventStore.open(mkdtempSync(path.join(tmpdir(), 'weather-events-')));
  const registry = new EventRegistry().register(...weatherEventTypes);
  const view = new CapAlertView(events, registry);
  await view.start();
  return {
    events,
    view,
    recorder: AlertRecorder.onPipeline(events, registry, clock),
    /** The book once the view holds everything recorded so far. */
    async book() {
      await view.catchUp();
      return view.current();
    },
    /** Events on the alert stream. */
    async count(): Promise<number> {
      return (await events.readStream(CAP_ALERTS_STREAM).catch(() => [])).length;
    },
    async close() {
      await view.onModuleDestroy();
      await events.close();
    },
  };
}

export type AlertStore = Awaited<ReturnType<typeof alertStore>>;
