import type { ContextManifest } from '../../platform/src/index.js';
import { confirmDelivery } from './commands/confirm-delivery/confirm-delivery.handler.js';
import { ensureSigningKey } from './commands/ensure-signing-key/ensure-signing-key.handler.js';
import { rotateSigningKeys } from './commands/rotate-signing-keys/rotate-signing-keys.handler.js';
import { verifyKyc } from './commands/verify-kyc/verify-kyc.handler.js';
import { verifyProximity } from './commands/verify-proximity/verify-proximity.handler.js';
import { identityEventTypes } from './event-types.js';
import { IDENTITY_SIGNALS_READ_MODEL } from './public/identity-signals.read-model.js';
import { IdentityNotifications } from './notifications/identity-notifications.js';
import { GetJwksQuery } from './queries/get-jwks/get-jwks.handler.js';
import { SigningKeyRing } from './public/signing-key-ring.js';

/** What the identity context brings to a process (checked at start-up). */
export const identityManifest: ContextManifest = {
  name: 'identity',
  events: identityEventTypes,
  commands: [ensureSigningKey, rotateSigningKeys, verifyProximity, verifyKyc, confirmDelivery],
  queries: [GetJwksQuery],
  readModels: { projections: [IDENTITY_SIGNALS_READ_MODEL.name], views: [SigningKeyRing.readModel] },
  notifications: [{ token: IdentityNotifications, notifies: ['delivery.confirmed'], from: ['DeliveryConfirmed'] }],
};
