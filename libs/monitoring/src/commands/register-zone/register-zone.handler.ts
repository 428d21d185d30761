import { CommandHandler } from '@nestjs/cqrs';
import { command, CommandPipeline, PipelineCommand, PipelineHandler } from '../../../../platform/src/index.js';
import { collectsLocation } from '../../domain/consent.js';
import { locationDecider, locationStream, type LocationEvent, type LocationState, type RegisterZone } from '../../domain/location.js';
import { LocationCodec } from '../../location-stream/location-codec.js';
import { readConsent } from '../../consent-record/read-consent.js';
import { DRIFT_STATE_PROJECTION } from '../../drift/drift-state.read-model.js';

/**
 * PUT /v2/monitoring/zones/{customer_id}. A zone is the customer's location
 * data too: it needs granted consent (read after the stream, as for pings:
 * ADR 12) and is sealed and erased like pings.
 */
export const registerZone = command<RegisterZone, LocationState, LocationEvent, { codec: LocationCodec; commands: CommandPipeline }>({
  name: 'monitoring.register-zone',
  stream: (zone) => locationStream(zone.account_id, zone.customer_id),
  decider: locationDecider,
  inject: { codec: LocationCodec, commands: CommandPipeline },
  codec: ({ codec }) => codec,
  prepare: async (input, _loaded, { commands }) => ({ ...input, collecting: collectsLocation(await readConsent(commands, input.account_id, input.customer_id)) }),
  // Conflicts come from ping batches of the same customer; registering again on fresh state is the same registration.
  onConflict: { retry: 20 },
  // The answer is the drift state against the new zone, read from drift_state.
  awaits: [DRIFT_STATE_PROJECTION],
});

export class RegisterZoneCommand extends PipelineCommand<RegisterZone, LocationState, LocationEvent> {}

@CommandHandler(RegisterZoneCommand)
export class RegisterZoneHandler extends PipelineHandler<RegisterZone, LocationState, LocationEvent, { codec: LocationCodec; commands: CommandPipeline }> {
  protected readonly definition = registerZone;
}
