import type { OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { latLngToCell } from 'h3-js';
import { LogFollower, type EventRegistry, type EventStore, type FollowedView, type JsonLogger, type ReadStore, type RecordedEvent } from '../../../platform/src/index.js';
import type { RoadConditions, RoadHazard } from '../../../routing/src/index.js';
import type { ArrivalRecorded } from '../domain/arrival.js';
import { blocksRoads, HAZARD_BLOCK_RADIUS_M, IncidentBoard, type HazardReported } from '../domain/hazard.js';
import { bucketOf, LearnedTraffic } from '../domain/learned-traffic.js';

/** H3 resolution of learned traffic cells (about 0.7 km² each). */
export const TRAFFIC_CELL_RES = 8;
/** H3 resolution of the arrival-error (snapping quality) cells. */
export const ARRIVAL_CELL_RES = 9;

/**
 * The live road layer (docs/adr/0025): the incident board and the learned
 * traffic, both folded from the `traffic_` streams from the beginning of the
 * log (a rebuild is a restart: the same log gives the same view). Routing
 * reads it through its RoadConditions port.
 */
export class TrafficView implements RoadConditions, FollowedView, OnApplicationBootstrap, OnModuleDestroy {
  static readonly readModel = 'traffic_view';
  readonly follower: LogFollower;
  readonly board = new IncidentBoard();
  readonly learned = new LearnedTraffic();
  /** Learned samples folded so far: the version of the factors routing customises its hierarchies for. */
  private samples = 0;
  /** Hazard reports folded so far, and the last answer of `hazards` with the times it holds for. */
  private reports = 0;
  private hazardCache: { reports: number; from: number; until: number; hazards: RoadHazard[] } | null = null;

  constructor(events: EventStore, readStore: ReadStore, registry: EventRegistry, logger?: Pick<JsonLogger, 'error' | 'warn'>) {
    this.follower = new LogFollower(
      events,
      registry,
      readStore,
      {
        name: 'traffic view',
        streamPrefixes: ['traffic_hazard-', 'traffic_arrival-'],
        handles: ['HazardReported', 'ArrivalRecorded'],
        start: { from: 'beginning' },
        sink: { handle: (event) => this.apply(event) },
      },
      logger,
    );
  }

  onApplicationBootstrap(): Promise<void> {
    return this.follower.start();
  }

  onModuleDestroy(): Promise<void> {
    return this.follower.stop();
  }

  apply(event: Pick<RecordedEvent, 'type' | 'data'>): void {
    if (event.type === 'HazardReported') {
      this.board.apply(event.data as HazardReported['data']);
      this.reports++;
    }
    else if (event.type === 'ArrivalRecorded') {
      const arrival = event.data as ArrivalRecorded['data'];
      applyArrival(this.learned, arrival);
      if (arrival.sample) this.samples++;
    }
  }

  /** Routes leave the static model only where a cell-hour passed the gate (ADR 0031). */
  hasTraffic(): boolean {
    return this.learned.hasLearned();
  }

  trafficFactor(lat: number, lng: number, _highway: string, at: Date): number | undefined {
    const bucket = bucketOf(at);
    // The answers of one hour bucket and one set of learned samples are kept per point (undefined: nothing learned).
    let memo = this.factorMemo;
    if (!memo || memo.bucket !== bucket || memo.samples !== this.learned.samples || memo.count >= 200_000) {
      memo = this.factorMemo = { bucket, samples: this.learned.samples, count: 0, points: new Map() };
    }
    let row = memo.points.get(lat);
    if (row) {
      for (let k = 0; k < row.length; k += 2) if (row[k] === lng) return row[k + 1];
    }
    // The model's learned figure (already capped, shrunk and clamped); undefined while the cell-hour is on the prior.
    const factor = this.learned.factor(this.cellOf(lat, lng), bucket);
    if (!row) memo.points.set(lat, (row = []));
    row.push(lng, factor);
    memo.count++;
    return factor;
  }

  /** trafficFactor's answers at points already asked, for the hour bucket and learned samples they were computed under. */
  private factorMemo: { bucket: number; samples: number; count: number; points: Map<number, Array<number | undefined>> } | null = null;

  /** The hour bucket of `at` and the samples learned so far: same pair, same factors (decay is applied when a sample arrives). */
  trafficMetric(at: Date): { key: string; version: number } {
    return { key: `hour-${bucketOf(at)}`, version: this.samples };
  }

  /**
   * Routing asks for the same points again and again (edge middles, step
   * middles): their cells are remembered, exactly, by latitude, then a short
   * row of (longitude, cell) pairs (number keys: no string built per look-up).
   */
  private readonly cells = new Map<number, Array<number | string>>();
  private cellCount = 0;

  private cellOf(lat: number, lng: number): string {
    let row = this.cells.get(lat);
    if (row) {
      for (let k = 0; k < row.length; k += 2) if (row[k] === lng) return row[k + 1] as string;
    }
    if (this.cellCount >= 200_000) {
      this.cells.clear();
      this.cellCount = 0;
      row = undefined;
    }
    const cell = latLngToCell(lat, lng, TRAFFIC_CELL_RES);
    if (row) row.push(lng, cell);
    else this.cells.set(lat, [lng, cell]);
    this.cellCount++;
    return cell;
  }

  /**
   * Hazards active at `at`. Every route asks, so the answer is kept (shared,
   * frozen: callers do not change it) until the next report or the next
   * expiry; the same list also lets routing keep its closures per list.
   */
  hazards(at: Date): RoadHazard[] {
    const now = at.getTime();
    const cached = this.hazardCache;
    if (cached && cached.reports === this.reports && now >= cached.from && now < cached.until) return cached.hazards;
    const active = this.board.active(at);
    const hazards = Object.freeze(
      active.map((incident) =>
        Object.freeze({
          id: incident.id,
          kind: incident.kind,
          lat: incident.lat,
          lng: incident.lng,
          corroborations: incident.corroborations,
          blocks: blocksRoads(incident),
          radius_m: HAZARD_BLOCK_RADIUS_M,
        }),
      ),
    ) as RoadHazard[];
    // The same incidents are live from now until the first of them expires (earlier times may see others).
    const until = active.reduce((first, incident) => Math.min(first, Date.parse(incident.expires_at)), Infinity);
    this.hazardCache = { reports: this.reports, from: now, until, hazards };
    return hazards;
  }
}

export function applyArrival(learned: LearnedTraffic, arrival: ArrivalRecorded['data']): void {
  if (arrival.destination_cell && arrival.arrival_error_m !== null) learned.addArrivalError(arrival.destination_cell, arrival.arrival_error_m);
  const sample = arrival.sample;
  if (!sample) return;
  const at = Date.parse(arrival.depart_at ?? arrival.recorded_at);
  learned.add({ at: Number.isNaN(at) ? Date.parse(arrival.recorded_at) : at, bucket: sample.bucket, cells: sample.cells, observed_s: sample.observed_s, static_s: sample.static_s, ...(arrival.reporter ? { reporter: arrival.reporter } : {}), ...(arrival.reporter_ids ? { reporter_ids: arrival.reporter_ids } : {}), ...(arrival.reporter_weight !== undefined ? { reporter_weight: arrival.reporter_weight } : {}) });
}
