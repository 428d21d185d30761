import { randomUUID } from 'node:crypto';
import { Command, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { command, CommandPipeline, greatCircleM, ReporterHash, type DeclaredCommandHandler } from '../../../../platform/src/index.js';
import { hazardReportDecider, hazardStream, type HazardEvent, type HazardReported, type HazardReportState, type Incident, type ReportHazard } from '../../domain/hazard.js';
import { TrafficView } from '../../public/traffic-view.js';
import { reporterIdentity, type ReportSender } from '../reporter-identity.js';

/** POST /v2/route/incidents: one report, live on the incident board (and in routing) when this answers. */
export const reportIncident = command<ReportHazard, HazardReportState, HazardEvent>({
  name: 'traffic.report-incident',
  stream: (input) => hazardStream(input.report_id),
  decider: hazardReportDecider,
  // A fresh id per report: a conflict is only a retried write of the same report, which decides nothing new.
  onConflict: { retry: 1 },
  awaits: [TrafficView.readModel],
});

/** A hazard report as received: the fields the decider checks, and who sent it (the client address, and a valid key's account). */
export class ReportIncidentCommand extends Command<Incident> {
  constructor(
    readonly report: Pick<ReportHazard, 'kind' | 'lat' | 'lng' | 'note'>,
    readonly from: ReportSender,
  ) {
    super();
  }
}

/** Runs the declaration under the reporter's keyed hash; answers the incident the report joined (or opened). */
@CommandHandler(ReportIncidentCommand)
export class ReportIncidentHandler implements ICommandHandler<ReportIncidentCommand>, DeclaredCommandHandler {
  declaration() {
    return reportIncident;
  }

  constructor(
    private readonly pipeline: CommandPipeline,
    private readonly reporters: ReporterHash,
    private readonly view: TrafficView,
  ) {}

  async execute({ report, from }: ReportIncidentCommand): Promise<Incident> {
    // The address always, and the account of a valid key: a client reporting once without its key and once with it is one reporter (ADR 0034).
    const { reporter, reporter_ids } = reporterIdentity(this.reporters, from);
    const { events } = await this.pipeline.run(reportIncident, { type: 'ReportHazard', report_id: randomUUID().replaceAll('-', ''), ...report, reporter, reporter_ids });
    const reported = (events[0] as HazardReported).data;
    // The incident it joined (or opened): the nearest live one of its kind, at the report's own time.
    const sameKind = this.view.board.active(new Date(reported.reported_at)).filter((incident) => incident.kind === reported.kind);
    const distance = (incident: Incident) => greatCircleM(incident.lat, incident.lng, reported.lat, reported.lng);
    return sameKind.reduce((best, incident) => (distance(incident) < distance(best) ? incident : best), sameKind[0]);
  }
}
