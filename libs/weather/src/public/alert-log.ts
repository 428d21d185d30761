import { existsSync, readFileSync, renameSync } from 'node:fs';
import path from 'node:path';
import { CommandPipeline, ReadModels, type Clock, type CommandResult, type EventRegistry, type EventStore } from '../../../platform/src/index.js';
import type { CapAlert } from '../cap/parse-cap.js';
import { recordedMessages, type CapAlertEvent, type CapAlertsState, type RecordAlerts } from '../domain/cap-alerts.js';
import { recordAlerts } from '../commands/record-alerts/record-alerts.handler.js';
import { alertCovers, isWetAlert, type AlertBook, type BBox, type LngLat } from '../alerts/alert-book.js';

/**
 * Where accepted CAP messages go: the record-alerts command (docs/adr/0026),
 * dispatched through CommandBus in the service and in `ops weather:import`
 * (the operator bus). Answers how many messages were new.
 */
export class AlertRecorder {
  constructor(private readonly run: (command: RecordAlerts) => Promise<CommandResult<CapAlertsState, CapAlertEvent, RecordAlerts>>) {}

  /** A recorder outside Nest for tests (libs/weather/src/testing): the command runs on its own pipeline over `events`. */
  static onPipeline(events: EventStore, registry: EventRegistry, clock: Clock): AlertRecorder {
    const pipeline = new CommandPipeline(events, registry, new ReadModels(), clock, {
      waitMs: 0,
      resolve: () => {
        throw new Error('record-alerts injects nothing');
      },
    });
    return new AlertRecorder((command) => pipeline.run(recordAlerts, command));
  }

  async record(messages: readonly CapAlert[]): Promise<number> {
    if (messages.length === 0) return 0;
    const { events } = await this.run({ type: 'RecordAlerts', messages });
    return recordedMessages(events);
  }
}

/**
 * The alert log of before (one JSON line per accepted message in
 * DATA_DIR/weather/cap-alerts.jsonl): moved onto the alert stream once, at
 * start-up or at the next import, then renamed `cap-alerts.jsonl.migrated`
 * (docs/adr/0026). Recording is idempotent (a message seen is left out), so
 * a migration interrupted before the rename simply runs again.
 */
export async function migrateAlertLog(dataDir: string, recorder: AlertRecorder): Promise<{ migrated: number } | null> {
  const file = path.join(dataDir, 'weather', 'cap-alerts.jsonl');
  if (!existsSync(file)) return null;
  const messages: CapAlert[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    try {
      messages.push(JSON.parse(line) as CapAlert);
    } catch {
      // a torn last line (a crash mid-append): it was never a recorded message
    }
  }
  const migrated = await recorder.record(messages);
  renameSync(file, `${file}.migrated`);
  return { migrated };
}

/** The alert book as a follower keeps it (CapAlertView), or any fold of the alert stream. */
export interface AlertSource {
  current(): AlertBook;
  /** Whether any alert was ever recorded. */
  readonly loaded: boolean;
}

/** CAP severities that count as "severe weather" for portfolio risk, whatever the event. */
const SEVERE = new Set(['Severe', 'Extreme']);

/**
 * The query other contexts use (banking's portfolio risk, routing's safer
 * routes through its WeatherConditions port): which points an active alert
 * covers at a time.
 */
export class WeatherAlerts {
  constructor(
    private readonly source: AlertSource,
    private readonly feedsConfigured: boolean,
  ) {}

  /** Per point: is it inside an active alert's area at `at`? `configured`: an alert source is set up or alerts were loaded. */
  coveringPoints(points: ReadonlyArray<{ lat: number; lng: number }>, at: Date, options: { wetOnly?: boolean; wetOrSevere?: boolean } = {}): { configured: boolean; covered: boolean[] } {
    const active = this.source
      .current()
      .active(at)
      .filter((alert) => (!options.wetOnly || isWetAlert(alert)) && (!options.wetOrSevere || isWetAlert(alert) || SEVERE.has(alert.severity)));
    return {
      configured: this.feedsConfigured || this.source.loaded,
      covered: points.map(({ lat, lng }) => active.some((alert) => alertCovers(alert, [lng, lat] as LngLat))),
    };
  }

  /** The event of the first active flood or rain alert covering one of the points, or null. */
  wetEventCovering(points: Array<{ lat: number; lng: number }>, at: Date): string | null {
    const wet = this.source.current().active(at).filter(isWetAlert);
    return wet.find((alert) => points.some(({ lat, lng }) => alertCovers(alert, [lng, lat])))?.event ?? null;
  }

  active(at: Date, filter: { point?: LngLat; bbox?: BBox } = {}) {
    const book = this.source.current();
    if (filter.point) return book.covering(filter.point, at);
    if (filter.bbox) return book.inBox(filter.bbox, at);
    return book.active(at);
  }
}
