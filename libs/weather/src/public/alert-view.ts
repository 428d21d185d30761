import type { OnModuleDestroy } from '@nestjs/common';
import { LogFollower, StreamNotFoundError, type EventRegistry, type EventStore, type FollowedView, type JsonLogger, type RecordedEvent } from '../../../platform/src/index.js';
import type { CapAlert } from '../cap/parse-cap.js';
import { CAP_ALERT_EVENT_TYPES, CAP_ALERTS_STREAM } from '../domain/cap-alerts.js';
import { AlertBook } from '../alerts/alert-book.js';

/** How long a read waits for this view to reach what the alert stream held when the read began. */
const CATCH_UP_MS = 2000;

/**
 * The alert book, folded in memory from the alert stream by a LogFollower
 * (read from the beginning before the first request: alerts are few and
 * short-lived), registered as the read model `weather_alerts`. An import by
 * another process (`ops weather:import`) reaches it within the follower's
 * lag; `catchUp` closes that gap for a read that must see it (GET
 * /v2/weather/alerts answers what was imported just before).
 */
export class CapAlertView implements FollowedView, OnModuleDestroy {
  static readonly readModel = 'weather_alerts';
  readonly follower: LogFollower;
  private book = new AlertBook();
  private applied = 0;

  constructor(
    private readonly events: EventStore,
    registry: EventRegistry,
    logger?: Pick<JsonLogger, 'error' | 'warn'>,
  ) {
    this.follower = new LogFollower(
      events,
      registry,
      undefined,
      { name: 'weather alert book', streamPrefixes: [CAP_ALERTS_STREAM], handles: CAP_ALERT_EVENT_TYPES, start: { from: 'beginning' }, sink: { handle: (event) => this.apply(event) } },
      logger,
    );
  }

  start(): Promise<void> {
    return this.follower.start();
  }

  onModuleDestroy(): Promise<void> {
    return this.follower.stop();
  }

  current(): AlertBook {
    return this.book;
  }

  /** Whether any alert was ever recorded (an alert source has been used). */
  get loaded(): boolean {
    return this.applied > 0;
  }

  /** Waits until the book holds every event the alert stream held when called (one stream read; at most CATCH_UP_MS). */
  async catchUp(): Promise<void> {
    const [last] = await this.events.readStream(CAP_ALERTS_STREAM, { direction: 'backwards', maxCount: 1 }).catch((error: unknown) => {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    });
    if (last && last.position > this.follower.position) await this.follower.waitFor(last.position, CATCH_UP_MS);
  }

  private apply(event: RecordedEvent): void {
    this.applied++;
    // An expiry changes nothing here: the book answers for any moment (`at`), so it keeps the alert.
    if (event.type === 'WeatherAlertImported' || event.type === 'WeatherAlertCancelled') this.book.add((event.data as { message: CapAlert }).message);
  }
}
