import { CommandHandler } from '@nestjs/cqrs';
import { command, PipelineCommand, PipelineHandler } from '../../../../platform/src/index.js';
import { deliveryDecider, deliveryStream, type AttemptCommand, type DeliveryEvent, type DeliveryState } from '../../domain/delivery.js';

/**
 * What the delivery processor records after each queued attempt: the attempt
 * (its number, X-Webhook-Delivery id, status, error class, duration, next
 * time), or why none was made (abandoned). Also what reads a delivery stream.
 */
export const recordDeliveryAttempt = command<AttemptCommand, DeliveryState, DeliveryEvent>({
  name: 'webhooks.record-delivery-attempt',
  stream: (input: AttemptCommand) => deliveryStream(input.account_id, input.delivery_id),
  decider: deliveryDecider,
  // An attempt is a fact: a concurrent write (a manual re-send request racing
  // a retry) only changes its number, so it is decided again on the new state.
  onConflict: { retry: 5 },
});

/** Dispatched by the delivery processor in the worker (no HTTP door). */
export class RecordDeliveryAttemptCommand extends PipelineCommand<AttemptCommand, DeliveryState, DeliveryEvent> {}

@CommandHandler(RecordDeliveryAttemptCommand)
export class RecordDeliveryAttemptHandler extends PipelineHandler<AttemptCommand, DeliveryState, DeliveryEvent> {
  protected readonly definition = recordDeliveryAttempt;
}
