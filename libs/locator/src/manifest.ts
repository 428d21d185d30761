import type { ContextManifest } from '../../platform/src/index.js';
import { cancelShareCode } from './commands/cancel-share-code/cancel-share-code.handler.js';
import { checkIn } from './commands/check-in/check-in.handler.js';
import { recordErasure } from './commands/erase-positions/erase-positions.handler.js';
import { issueShareCode } from './commands/issue-share-code/issue-share-code.handler.js';
import { redeemShareCode } from './commands/redeem-share-code/redeem-share-code.handler.js';
import { revokePairing } from './commands/revoke-pairing/revoke-pairing.handler.js';
import { locatorEventTypes } from './event-types.js';
import { GetLocationQuery } from './queries/get-location/get-location.handler.js';
import { ListViewersQuery } from './queries/list-viewers/list-viewers.handler.js';
import { ListWatchingQuery } from './queries/list-watching/list-watching.handler.js';
import { LOCATOR_SHARES_READ_MODEL } from './public/shares.read-model.js';

/** What the partner locator brings to a process (checked at start-up). */
export const locatorManifest: ContextManifest = {
  name: 'locator',
  events: locatorEventTypes,
  commands: [issueShareCode, redeemShareCode, revokePairing, cancelShareCode, checkIn, recordErasure],
  queries: [GetLocationQuery, ListViewersQuery, ListWatchingQuery],
  readModels: { projections: [LOCATOR_SHARES_READ_MODEL.name] },
};
