import type { OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { latLngToCell } from 'h3-js';
import { LogFollower, type EventRegistry, type EventStore, type FollowedView, type JsonLogger, type ReadStore, type RecordedEvent } from '../../platform/src/index.js';
import type { RoadConditions, RoadHazard } from '../../routing/src/index.js';
import type { ArrivalRecorded } from './domain/arrival.js';
import { blocksRoads, HAZARD_BLOCK_RADIUS_M, IncidentBoard, type HazardReported } from './domain/hazard.js';
import { bucketOf, LearnedTraffic, MAX_FACTOR, MIN_FACTOR } from './domain/learned-traffic.js';

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
    if (event.type === 'HazardReported') this.board.apply((event.data as unknown as HazardReported['data']));
    else if (event.type === 'ArrivalRecorded') {
      const arrival = event.data as unknown as ArrivalRecorded['data'];
      applyArrival(this.learned, arrival);
      if (arrival.sample) this.samples++;
    }
  }

  hasTraffic(): boolean {
    return !this.learned.isEmpty();
  }

  trafficFactor(lat: number, lng: number, _highway: string, at: Date): number | undefined {
    const factor = this.learned.factor(this.cellOf(lat, lng), bucketOf(at));
    return factor === undefined ? undefined : Math.min(MAX_FACTOR, Math.max(MIN_FACTOR, factor));
  }

  /** The hour bucket of `at` and the samples learned so far: same pair, same factors (decay is applied when a sample arrives). */
  trafficMetric(at: Date): { key: string; version: number } {
    return { key: `hour-${bucketOf(at)}`, version: this.samples };
  }

  /** Routing asks for the same points again and again (edge middles, step middles): their cells are remembered, exactly. */
  private readonly cells = new Map<string, string>();

  private cellOf(lat: number, lng: number): string {
    const key = `${lat},${lng}`;
    let cell = this.cells.get(key);
    if (cell === undefined) {
      if (this.cells.size >= 200_000) this.cells.clear();
      cell = latLngToCell(lat, lng, TRAFFIC_CELL_RES);
      this.cells.set(key, cell);
    }
    return cell;
  }

  hazards(at: Date): RoadHazard[] {
    return this.board.active(at).map((incident) => ({
      id: incident.id,
      kind: incident.kind,
      lat: incident.lat,
      lng: incident.lng,
      corroborations: incident.corroborations,
      blocks: blocksRoads(incident),
      radius_m: HAZARD_BLOCK_RADIUS_M,
    }));
  }
}

export function applyArrival(learned: LearnedTraffic, arrival: ArrivalRecorded['data']): void {
  if (arrival.destination_cell && arrival.arrival_error_m !== null) learned.addArrivalError(arrival.destination_cell, arrival.arrival_error_m);
  const sample = arrival.sample;
  if (!sample) return;
  const at = Date.parse(arrival.depart_at ?? arrival.recorded_at);
  learned.add({ at: Number.isNaN(at) ? Date.parse(arrival.recorded_at) : at, bucket: sample.bucket, cells: sample.cells, observed_s: sample.observed_s, static_s: sample.static_s });
}
