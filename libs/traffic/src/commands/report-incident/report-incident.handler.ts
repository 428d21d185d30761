import { CommandHandler } from '@nestjs/cqrs';
import { command, PipelineCommand, PipelineHandler } from '../../../../platform/src/index.js';
import { hazardReportDecider, hazardStream, type HazardEvent, type HazardReportState, type ReportHazard } from '../../domain/hazard.js';
import { TrafficView } from '../../traffic-view.js';

/** POST /v2/route/incidents: one report, live on the incident board (and in routing) when this answers. */
export const reportIncident = command<ReportHazard, HazardReportState, HazardEvent>({
  name: 'traffic.report-incident',
  stream: (input) => hazardStream(input.report_id),
  decider: hazardReportDecider,
  // A fresh id per report: a conflict is only a retried write of the same report, which decides nothing new.
  onConflict: { retry: 1 },
  awaits: [TrafficView.readModel],
});

export class ReportIncidentCommand extends PipelineCommand<ReportHazard, HazardReportState, HazardEvent> {}

@CommandHandler(ReportIncidentCommand)
export class ReportIncidentHandler extends PipelineHandler<ReportHazard, HazardReportState, HazardEvent> {
  protected readonly definition = reportIncident;
}
