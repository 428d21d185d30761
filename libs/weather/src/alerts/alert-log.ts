import { appendFileSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { CapAlert } from '../cap/parse-cap.js';
import { AlertBook, alertCovers, isWetAlert, type BBox, type LngLat } from './alert-book.js';

/**
 * The alert log: every accepted CAP message, one JSON line each, appended in
 * arrival order (docs/adr/0026). The AlertBook is its fold; any process
 * (the API, the ops import, the poller) appends, and readers refold when the
 * file grew. A line is written with one append, so a reader never sees half a
 * message; a torn last line (a crash mid-write) is skipped.
 */
export class AlertLog {
  private book = new AlertBook();
  private readSize = -1;

  constructor(private readonly file: string) {}

  static in(dataDir: string): AlertLog {
    return new AlertLog(path.join(dataDir, 'weather', 'cap-alerts.jsonl'));
  }

  /** Appends the messages the book does not know yet; returns how many were new. */
  append(messages: CapAlert[]): number {
    const book = this.current();
    const fresh = messages.filter((message) => book.add(message));
    if (fresh.length === 0) return 0;
    mkdirSync(path.dirname(this.file), { recursive: true });
    appendFileSync(this.file, fresh.map((message) => JSON.stringify(message) + '\n').join(''));
    this.readSize = statSync(this.file).size;
    return fresh.length;
  }

  /** The book folded from the log, refolded when the file changed size. */
  current(): AlertBook {
    let size = 0;
    try {
      size = statSync(this.file).size;
    } catch {
      size = 0;
    }
    if (size !== this.readSize) {
      const book = new AlertBook();
      if (size > 0) {
        for (const line of readFileSync(this.file, 'utf8').split('\n')) {
          if (!line.trim()) continue;
          try {
            book.add(JSON.parse(line) as CapAlert);
          } catch {
            // a torn last line
          }
        }
      }
      this.book = book;
      this.readSize = size;
    }
    return this.book;
  }

  /** Whether any alert was ever loaded (a log exists). */
  get loaded(): boolean {
    return this.current().size > 0 || this.readSize > 0;
  }
}

/**
 * The query other contexts use (banking's portfolio risk, routing's safer
 * routes through its WeatherConditions port): which points an active alert
 * covers at a time.
 */
/** CAP severities that count as "severe weather" for portfolio risk, whatever the event. */
const SEVERE = new Set(['Severe', 'Extreme']);

export class WeatherAlerts {
  constructor(
    private readonly log: AlertLog,
    private readonly feedsConfigured: boolean,
  ) {}

  /** Per point: is it inside an active alert's area at `at`? `configured`: an alert source is set up or alerts were loaded. */
  coveringPoints(points: ReadonlyArray<{ lat: number; lng: number }>, at: Date, options: { wetOnly?: boolean; wetOrSevere?: boolean } = {}): { configured: boolean; covered: boolean[] } {
    const active = this.log
      .current()
      .active(at)
      .filter((alert) => (!options.wetOnly || isWetAlert(alert)) && (!options.wetOrSevere || isWetAlert(alert) || SEVERE.has(alert.severity)));
    return {
      configured: this.feedsConfigured || this.log.loaded,
      covered: points.map(({ lat, lng }) => active.some((alert) => alertCovers(alert, [lng, lat] as LngLat))),
    };
  }

  /** The event of the first active flood or rain alert covering one of the points, or null. */
  wetEventCovering(points: Array<{ lat: number; lng: number }>, at: Date): string | null {
    const wet = this.log.current().active(at).filter(isWetAlert);
    return wet.find((alert) => points.some(({ lat, lng }) => alertCovers(alert, [lng, lat])))?.event ?? null;
  }

  active(at: Date, filter: { point?: LngLat; bbox?: BBox } = {}) {
    const book = this.log.current();
    if (filter.point) return book.covering(filter.point, at);
    if (filter.bbox) return book.inBox(filter.bbox, at);
    return book.active(at);
  }
}
