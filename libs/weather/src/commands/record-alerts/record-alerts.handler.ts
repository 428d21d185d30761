import { CommandHandler } from '@nestjs/cqrs';
import { command, PipelineCommand, PipelineHandler } from '../../../../platform/src/index.js';
import { CAP_ALERTS_STREAM, capAlertsDecider, type CapAlertEvent, type CapAlertsState, type RecordAlerts } from '../../domain/cap-alerts.js';

/** `ops weather:import` and the feed poller: accepted CAP messages onto the alert stream. */
export const recordAlerts = command<RecordAlerts, CapAlertsState, CapAlertEvent>({
  name: 'weather.record-alerts',
  stream: () => CAP_ALERTS_STREAM,
  decider: capAlertsDecider,
  // Every rule is in the decider (a message seen is left out), so an import racing another
  // (the poller and the CLI) re-decides on fresh state and records each message once.
  onConflict: { retry: 5 },
});

export class RecordAlertsCommand extends PipelineCommand<RecordAlerts, CapAlertsState, CapAlertEvent> {}

@CommandHandler(RecordAlertsCommand)
export class RecordAlertsHandler extends PipelineHandler<RecordAlerts, CapAlertsState, CapAlertEvent> {
  protected readonly definition = recordAlerts;
}
