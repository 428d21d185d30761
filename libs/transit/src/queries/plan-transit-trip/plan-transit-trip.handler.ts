import { Inject } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { CLOCK, InvalidParamError, type AnswerOf, type Clock } from '../../../../platform/src/index.js';
import { PlannerPool } from '../../public/planner-pool.js';
import { TransitFeeds } from '../../public/transit-feeds.js';
import { checkDateTime, datasetView, pointOf, requestedMoment } from '../transit-views.js';
import { planView } from './itinerary-view.js';
import type { PlanTransitTripAnswerSchema } from './plan-transit-trip.answer.js';

const MAX_MODES_LENGTH = 200;

/** POST /v2/route/transit: the body's fields as given (each checked here, 400 INVALID_PARAM naming the field). */
export interface TransitTripRequest {
  from: unknown;
  to: unknown;
  date?: string;
  time?: string;
  modes?: unknown;
  arrive_by?: boolean;
}

export type TransitTrip = AnswerOf<typeof PlanTransitTripAnswerSchema>;

export class PlanTransitTripQuery extends Query<TransitTrip> {
  constructor(readonly request: TransitTripRequest) {
    super();
  }
}

/** Itineraries over the feed serving the origin, planned in a planner thread (docs/adr/0019). */
@QueryHandler(PlanTransitTripQuery)
export class PlanTransitTripHandler implements IQueryHandler<PlanTransitTripQuery> {
  constructor(
    @Inject(TransitFeeds) private readonly feeds: TransitFeeds,
    @Inject(PlannerPool) private readonly planner: PlannerPool,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ request }: PlanTransitTripQuery): Promise<TransitTrip> {
    const from = pointOf(request.from, 'from');
    const to = pointOf(request.to, 'to');
    checkDateTime(request.date, request.time);
    const transit = transitSelected(request.modes);
    const feed = this.feeds.feedFor(from);
    const { day, seconds } = requestedMoment(feed, this.clock.now(), request.date, request.time);
    // Off the event loop (planner threads, each with its own copy of this feed version); the answer is made here, from this thread's network.
    const plan = await this.planner.plan(feed, { from, to, day, seconds, arriveBy: request.arrive_by === true, transit });
    return { ...planView(feed, plan, from, to), dataset: datasetView(feed), attribution: feed.attribution };
  }
}

/** interface.md: a case-insensitive substring selector; empty or containing "transit" enables transit. */
export function transitSelected(modes: unknown): boolean {
  if (modes === undefined || modes === null) return true;
  let text: string;
  if (typeof modes === 'string') text = modes;
  else if (Array.isArray(modes) && modes.every((mode) => typeof mode === 'string')) text = modes.join(',');
  else throw new InvalidParamError('modes must be a string (e.g. "transit,walk") or a list of strings', 'modes');
  if (text.length > MAX_MODES_LENGTH) throw new InvalidParamError(`modes must be at most ${MAX_MODES_LENGTH} characters`, 'modes');
  return text.trim() === '' || text.toLowerCase().includes('transit');
}
