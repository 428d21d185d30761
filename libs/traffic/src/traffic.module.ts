import path from 'node:path';
import { Inject, Module, Optional, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { AccountsModule } from '../../accounts/src/index.js';
import { CONFIG, EVENT_STORE, EventRegistry, Followers, JsonLogger, ReadModels, READ_STORE, registerView, ReporterHash, type Config, type EventStore, type ReadStore } from '../../platform/src/index.js';
import { RoadConditionsSlot, RoutingModule } from '../../routing/src/index.js';
import { registerArrivalBody } from './arrival-body.js';
import { RecordArrivalController } from './commands/record-arrival/record-arrival.controller.js';
import { RecordArrivalHandler, RecordArrivalStepHandler } from './commands/record-arrival/record-arrival.handler.js';
import { ReportIncidentController } from './commands/report-incident/report-incident.controller.js';
import { ReportIncidentHandler } from './commands/report-incident/report-incident.handler.js';
import { ListIncidentsController } from './queries/list-incidents/list-incidents.controller.js';
import { ListIncidentsHandler } from './queries/list-incidents/list-incidents.handler.js';
import { RoadTrafficController } from './queries/road-traffic/road-traffic.controller.js';
import { RoadTrafficHandler } from './queries/road-traffic/road-traffic.handler.js';
import { TrafficAccuracyController } from './queries/traffic-accuracy/traffic-accuracy.controller.js';
import { TrafficAccuracyHandler } from './queries/traffic-accuracy/traffic-accuracy.handler.js';
import { TrafficHeatmapController } from './queries/traffic-heatmap/traffic-heatmap.controller.js';
import { TrafficHeatmapHandler } from './queries/traffic-heatmap/traffic-heatmap.handler.js';
import { TrafficView } from './public/traffic-view.js';

/** Hazard reporters' key (ADR 25): its own, so a traffic reporter hash says nothing about a landmark reporter's. */
const REPORTER_KEY_FILE = path.join('secrets', 'traffic-reporter.key');

/**
 * The live road layer (docs/adr/0025): arrivals teach traffic, hazard reports
 * become incidents, and both reach routing through its RoadConditions port.
 */
@Module({
  // AccountsModule: the key directory (an arriving account's tier and age weigh its samples, ADR 0056).
  imports: [RoutingModule, AccountsModule],
  controllers: [RoadTrafficController, ListIncidentsController, ReportIncidentController, RecordArrivalController, TrafficHeatmapController, TrafficAccuracyController],
  providers: [
    {
      provide: TrafficView,
      inject: [EVENT_STORE, READ_STORE, EventRegistry, JsonLogger, ReadModels, Followers, RoadConditionsSlot],
      useFactory: (events: EventStore, readStore: ReadStore, registry: EventRegistry, logger: JsonLogger, readModels: ReadModels, followers: Followers, slot: RoadConditionsSlot) => {
        const view = registerView(new TrafficView(events, readStore, registry, logger), TrafficView.readModel, readModels, followers);
        slot.current = view;
        return view;
      },
    },
    { provide: ReporterHash, inject: [CONFIG], useFactory: (config: Config) => ReporterHash.fromDataDir(config.dataDir, REPORTER_KEY_FILE, 'traffic-reporter') },
    ReportIncidentHandler,
    RecordArrivalStepHandler,
    RecordArrivalHandler,
    ListIncidentsHandler,
    RoadTrafficHandler,
    TrafficAccuracyHandler,
    TrafficHeatmapHandler,
  ],
  exports: [TrafficView],
})
export class TrafficModule implements OnModuleInit {
  constructor(
    @Inject(CONFIG) private readonly config: Config,
    @Optional() private readonly http?: HttpAdapterHost,
  ) {}

  onModuleInit(): void {
    const fastify = this.http?.httpAdapter?.getInstance() as FastifyInstance | undefined;
    if (fastify) registerArrivalBody(fastify, this.config.bodyLimitBytes);
  }
}
