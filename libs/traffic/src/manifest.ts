import type { ContextManifest } from '../../platform/src/index.js';
import { recordArrival } from './commands/record-arrival/record-arrival.handler.js';
import { reportIncident } from './commands/report-incident/report-incident.handler.js';
import { trafficEventTypes } from './event-types.js';
import { ListIncidentsQuery } from './queries/list-incidents/list-incidents.handler.js';
import { RoadTrafficQuery } from './queries/road-traffic/road-traffic.handler.js';
import { TrafficAccuracyQuery } from './queries/traffic-accuracy/traffic-accuracy.handler.js';
import { TrafficHeatmapQuery } from './queries/traffic-heatmap/traffic-heatmap.handler.js';
import { TrafficView } from './public/traffic-view.js';

/** What the live road layer brings to a process (docs/adr/0025). */
export const trafficManifest: ContextManifest = {
  name: 'traffic',
  events: trafficEventTypes,
  commands: [reportIncident, recordArrival],
  queries: [ListIncidentsQuery, RoadTrafficQuery, TrafficAccuracyQuery, TrafficHeatmapQuery],
  readModels: { views: [TrafficView.readModel] },
};
