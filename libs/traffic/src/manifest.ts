import type { ContextManifest } from '../../platform/src/index.js';
import { recordArrival } from './commands/record-arrival/record-arrival.handler.js';
import { reportIncident } from './commands/report-incident/report-incident.handler.js';
import { trafficEventTypes } from './event-types.js';
import { TrafficView } from './traffic-view.js';

/** What the live road layer brings to a process (docs/adr/0025). */
export const trafficManifest: ContextManifest = {
  name: 'traffic',
  events: trafficEventTypes,
  commands: [reportIncident, recordArrival],
  readModels: { views: [TrafficView.readModel] },
};
