import { randomUUID } from 'node:crypto';
import { Inject, Optional } from '@nestjs/common';
import { Command, CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { latLngToCell } from 'h3-js';
import { ACCOUNT_DIRECTORY, type AccountDirectory } from '../../../../accounts/src/index.js';
import { CLOCK, command, PipelineCommand, PipelineHandler, ReporterHash, type Clock } from '../../../../platform/src/index.js';
import { parseMode, ROUTING_ENGINE, type Mode, type RoutingEngine } from '../../../../routing/src/index.js';
import { arrivalDecider, arrivalStream, implausibility, reporterWeight, type ArrivalEvent, type ReporterStanding, type Point, type RecordArrival, type TrafficSample } from '../../domain/arrival.js';
import { greatCircleM } from '../../../../platform/src/geo/geodesy.js';
import { bucketOf } from '../../domain/learned-traffic.js';
import { ARRIVAL_CELL_RES, TRAFFIC_CELL_RES, TrafficView } from '../../public/traffic-view.js';
import { reporterIdentity, type ReportSender } from '../reporter-identity.js';

export const recordArrival = command<RecordArrival, { recorded: boolean }, ArrivalEvent>({
  name: 'traffic.record-arrival',
  stream: (input) => arrivalStream(input.arrival.arrival_id),
  decider: arrivalDecider,
  onConflict: { retry: 1 },
  // Soft: the answer is 204 whatever the view does; the heatmap catches up.
  awaits: [{ readModel: TrafficView.readModel, soft: true }],
});

/** The arrival as read, stored (named apart from `RecordArrivalCommand`, the slice's process that reads any body). */
export class RecordArrivalStepCommand extends PipelineCommand<RecordArrival, { recorded: boolean }, ArrivalEvent> {}

@CommandHandler(RecordArrivalStepCommand)
export class RecordArrivalStepHandler extends PipelineHandler<RecordArrival, { recorded: boolean }, ArrivalEvent> {
  protected readonly definition = recordArrival;
}

/** Longest elapsed time taken as a trip (a day); longer is dropped as a field. */
const MAX_ELAPSED_S = 86_400;

/**
 * What POST /v2/navigation/arrival keeps of any body. An origin and an elapsed
 * time become a traffic sample against the static model's time for the same
 * trip (the engine without learned factors); a trip without `depart_at`
 * departed `elapsed_s` before now, on the injected clock.
 */
export class ArrivalReader {
  constructor(
    private readonly engine: RoutingEngine,
    private readonly clock: Clock,
  ) {}

  /** `reporter`: the sender's identities (ADR 0031, 0056) and its weight now (`reporterWeight`). */
  async read(body: unknown, reporter: { reporter: string; reporter_ids: string[]; reporter_weight: number }): Promise<RecordArrival> {
    const now = this.clock.now();
    const fields = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
    const destination = point(fields.destination) ?? point({ lat: fields.dest_lat, lng: fields.dest_lng });
    const end = point(fields.end) ?? point(fields.arrived_at) ?? point({ lat: fields.lat, lng: fields.lng });
    const origin = point(fields.origin) ?? point({ lat: fields.origin_lat, lng: fields.origin_lng });
    const elapsed = typeof fields.elapsed_s === 'number' && Number.isFinite(fields.elapsed_s) && fields.elapsed_s > 0 && fields.elapsed_s <= MAX_ELAPSED_S ? fields.elapsed_s : null;
    let mode: Mode = 'driving';
    try {
      if (fields.mode !== undefined) mode = parseMode(fields.mode);
    } catch {
      // An unknown mode is dropped like any other unreadable field.
    }
    const departParsed = typeof fields.depart_at === 'string' ? new Date(fields.depart_at) : null;
    const departAt = departParsed && !Number.isNaN(departParsed.getTime()) ? departParsed : null;
    const tripEnd = end ?? destination;
    let sample: TrafficSample | null = null;
    let rejected: string | null = null;
    if (origin && tripEnd && elapsed !== null) {
      const departure = departAt ?? new Date(now.getTime() - elapsed * 1000);
      ({ sample, rejected } = await this.sample(origin, tripEnd, elapsed, mode, departure));
    }
    return {
      type: 'RecordArrival',
      arrival: {
        arrival_id: randomUUID().replaceAll('-', ''),
        destination,
        end,
        origin,
        elapsed_s: elapsed,
        mode,
        depart_at: departAt?.toISOString() ?? null,
        arrival_error_m: destination && end ? Math.round(greatCircleM(destination.lat, destination.lng, end.lat, end.lng) * 10) / 10 : null,
        destination_cell: destination ? latLngToCell(destination.lat, destination.lng, ARRIVAL_CELL_RES) : null,
        sample,
        rejected,
        ...reporter,
      },
    };
  }

  private async sample(origin: Point, end: Point, elapsed: number, mode: Mode, departure: Date): Promise<{ sample: TrafficSample | null; rejected: string | null }> {
    let path;
    try {
      path = (await this.engine.route({ points: [origin, end], mode, alternatives: 0 })).paths[0];
    } catch {
      return { sample: null, rejected: 'no_static_route' };
    }
    if (!path || path.duration_s <= 0) return { sample: null, rejected: 'no_static_route' };
    const rejected = implausibility(mode, elapsed, path.duration_s, path.distance_m);
    if (rejected) return { sample: null, rejected };
    const cells: string[] = [];
    for (const leg of path.legs) {
      for (const [lng, lat] of leg.coordinates) {
        const cell = latLngToCell(lat, lng, TRAFFIC_CELL_RES);
        if (cells[cells.length - 1] !== cell) cells.push(cell);
      }
    }
    return {
      sample: {
        observed_s: elapsed,
        static_s: Math.round(path.duration_s * 10) / 10,
        static_distance_m: Math.round(path.distance_m),
        ratio: Math.round((elapsed / path.duration_s) * 1000) / 1000,
        cells: [...new Set(cells)],
        bucket: bucketOf(departure),
      },
      rejected: null,
    };
  }
}

/** POST /v2/navigation/arrival: any body, even one that is not JSON. */
export class RecordArrivalCommand extends Command<void> {
  constructor(
    readonly body: unknown,
    /**
     * Who sent it: the client address, and the key's account, else the key
     * itself (a legacy key); without a key (authentication disabled in
     * development) the address alone. `key`: the calling key's tier and issue
     * time, the standing of a key without an account (ADR 0056).
     */
    readonly from: ReportSender & { key?: { tier: string; issued_at: string } | null },
  ) {
    super();
  }
}

/** Reads what it can of the body, then stores it (`RecordArrivalStepCommand` through the bus). */
@CommandHandler(RecordArrivalCommand)
export class RecordArrivalHandler implements ICommandHandler<RecordArrivalCommand> {
  private readonly reader: ArrivalReader;

  constructor(
    private readonly commands: CommandBus,
    @Inject(ROUTING_ENGINE) engine: RoutingEngine,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly reporters: ReporterHash,
    @Optional() @Inject(ACCOUNT_DIRECTORY) private readonly directory?: AccountDirectory,
  ) {
    this.reader = new ArrivalReader(engine, clock);
  }

  async execute({ body, from }: RecordArrivalCommand): Promise<void> {
    // One reporter is one client (ADR 0034, 0056): the address and the account are both its identities, as for a hazard
    // report; a device id in the body is the caller's claim and counts for nothing.
    const identity = reporterIdentity(this.reporters, from);
    const reporter_weight = reporterWeight(this.standing(from), this.clock.now());
    await this.commands.execute(new RecordArrivalStepCommand(await this.reader.read(body, { ...identity, reporter_weight })));
  }

  /** The account's tier now and when it opened, from the key directory; else the key's own (a legacy key, or an account not in the directory yet). */
  private standing(from: RecordArrivalCommand['from']): ReporterStanding | null {
    const account = from.accountId ? this.directory?.account(from.accountId) : undefined;
    if (account) return { tier: account.tier, since: account.opened_at };
    return from.key ? { tier: from.key.tier, since: from.key.issued_at } : null;
  }
}

/** A coordinate pair from `{lat, lng}`; missing, non-numeric, out-of-range or zero (0,0 or either 0) is dropped. */
function point(value: unknown): Point | null {
  if (value === null || typeof value !== 'object') return null;
  const { lat, lng } = value as { lat?: unknown; lng?: unknown };
  if (typeof lat !== 'number' || typeof lng !== 'number' || !Number.isFinite(lat) || !Number.isFinite(lng)) return null;
  if (lat === 0 || lng === 0 || Math.abs(lat) > 90 || Math.abs(lng) > 180) return null;
  return { lat, lng };
}
