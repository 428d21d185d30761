export * from './domain/notification.js';
export * from './public/notification-source.js';
export * from './domain/webhook.js';
export * from './domain/delivery.js';
export * from './domain/delivery-erasure.js';
export * from './domain/address-policy.js';
export * from './domain/signature.js';
export * from './event-types.js';
export {
  DELIVERIES_READ_MODEL,
  DELIVERIES_BY_ACCOUNT,
  DELIVERIES_BY_CUSTOMER,
  DELIVERIES_BY_LEGACY_CUSTOMER,
  DELIVERIES_INDEXES,
  ATTEMPTS_KEPT,
  erasureMarkerId,
  type StoppedReason,
  type AttemptView,
  type DeliveryDoc,
  type ErasureMarkerDoc,
  type WebhookDeliveriesDoc,
} from './public/webhook-deliveries.read-model.js';
export { CustomerDeliveries } from './public/customer-deliveries.js';
export * from './webhooks.module.js';
export * from './webhooks-worker.module.js';
export * from './manifest.js';
// What this context brings to the apps (apps/shared/contexts.ts).
export { webhooksContext } from './context.js';
