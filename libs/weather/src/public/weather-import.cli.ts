import { readFile, stat } from 'node:fs/promises';
import { EventRegistry, openEventStore, systemClock, withOperatorBus, type Clock, type EventStore } from '../../../platform/src/index.js';
import { RecordAlertsCommand, RecordAlertsHandler } from '../commands/record-alerts/record-alerts.handler.js';
import { MAX_CAP_BYTES } from '../cap/parse-cap.js';
import { weatherEventTypes } from '../event-types.js';
import { AlertRecorder, migrateAlertLog } from './alert-log.js';
import { importAlerts } from './import-alerts.js';

/** Where `weather:import` records: the operator CLI's event store, or (a bare DATA_DIR) the embedded store in it. */
export type AlertStoreTarget = string | { dataDir: string; events: EventStore; registry: EventRegistry; clock?: Clock };

/**
 * `npm run ops -- weather:import FILE…`: CAP 1.2 files onto the alert stream
 * (the record-alerts command). Exit code 0 when every file went in (or was
 * there already), 1 otherwise. A legacy alert log in DATA_DIR is migrated
 * first (docs/adr/0026).
 */
export async function weatherImportCli(target: AlertStoreTarget, files: string[], out: (line: string) => void): Promise<number> {
  if (files.length === 0) {
    out('weather:import: name at least one CAP file');
    return 64;
  }
  const documents: Array<{ source: string; xml: string }> = [];
  const rejected: Array<{ source: string; reason: string }> = [];
  for (const file of files) {
    try {
      if ((await stat(file)).size > MAX_CAP_BYTES) throw new Error(`larger than ${MAX_CAP_BYTES} bytes`);
      documents.push({ source: file, xml: await readFile(file, 'utf8') });
    } catch (error) {
      rejected.push({ source: file, reason: (error as Error).message });
    }
  }
  const own = typeof target === 'string';
  const store = own ? { dataDir: target, events: await openEventStore({ dataDir: target }), registry: new EventRegistry().register(...weatherEventTypes) } : target;
  try {
    const clock = ('clock' in store && store.clock) || systemClock;
    // The record-alerts command on the operator bus, to the service's own handler.
    const outcome = await withOperatorBus({ events: store.events, registry: store.registry, clock, providers: [RecordAlertsHandler] }, async (commands) => {
      const recorder = new AlertRecorder((command) => commands.execute(new RecordAlertsCommand(command)));
      const migration = await migrateAlertLog(store.dataDir, recorder);
      if (migration) out(`weather:import: the alert log was moved onto the event store (${migration.migrated} alert(s)); the file is now cap-alerts.jsonl.migrated`);
      return importAlerts(recorder, documents);
    });
    rejected.push(...outcome.rejected);
    out(`weather:import: ${outcome.accepted} alert(s) added, ${outcome.duplicates} already known, ${rejected.length} refused`);
    for (const refusal of rejected) out(`  refused ${refusal.source}: ${refusal.reason}`);
    return rejected.length === 0 ? 0 : 1;
  } finally {
    if (own) await store.events.close();
  }
}
