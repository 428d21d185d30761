import type { ContextManifest } from '../../platform/src/index.js';
import { transitDatasets } from './datasets.js';
import { transitEventTypes } from './event-types.js';
import { GetDeparturesQuery } from './queries/get-departures/get-departures.handler.js';
import { PlanTransitTripQuery } from './queries/plan-transit-trip/plan-transit-trip.handler.js';

/** What the transit context brings to a process (checked at start-up): queries over reference data only. */
export const transitManifest: ContextManifest = {
  name: 'transit',
  events: transitEventTypes,
  commands: [],
  queries: [PlanTransitTripQuery, GetDeparturesQuery],
  datasets: transitDatasets,
};
