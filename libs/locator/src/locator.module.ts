import { Module } from '@nestjs/common';
import { ACCOUNT_DIRECTORY, AccountsModule, type AccountDirectory } from '../../accounts/src/index.js';
import { DATA_KEY_VAULT, EVENT_STORE, EventRegistry, READ_STORE, type DataKeyVault, type EventStore, type ReadStore } from '../../platform/src/index.js';
import { AccountNames } from './account-names.js';
import { CancelShareCodeController } from './commands/cancel-share-code/cancel-share-code.controller.js';
import { CancelShareCodeHandler } from './commands/cancel-share-code/cancel-share-code.handler.js';
import { CheckInController } from './commands/check-in/check-in.controller.js';
import { CheckInHandler } from './commands/check-in/check-in.handler.js';
import { ErasePositionsController } from './commands/erase-positions/erase-positions.controller.js';
import { ErasePositionsHandler, RecordErasureHandler } from './commands/erase-positions/erase-positions.handler.js';
import { IssueShareCodeController } from './commands/issue-share-code/issue-share-code.controller.js';
import { IssueShareCodeHandler } from './commands/issue-share-code/issue-share-code.handler.js';
import { RedeemAttempts } from './commands/redeem-share-code/redeem-attempts.js';
import { RedeemShareCodeController } from './commands/redeem-share-code/redeem-share-code.controller.js';
import { RedeemShareCodeHandler } from './commands/redeem-share-code/redeem-share-code.handler.js';
import { RevokePairingController } from './commands/revoke-pairing/revoke-pairing.controller.js';
import { RevokePairingHandler } from './commands/revoke-pairing/revoke-pairing.handler.js';
import { PositionSealing } from './public/position-sealing.js';
import { GetLocationController } from './queries/get-location/get-location.controller.js';
import { GetLocationHandler } from './queries/get-location/get-location.handler.js';
import { ListViewersController } from './queries/list-viewers/list-viewers.controller.js';
import { ListViewersHandler } from './queries/list-viewers/list-viewers.handler.js';
import { ListWatchingController } from './queries/list-watching/list-watching.controller.js';
import { ListWatchingHandler } from './queries/list-watching/list-watching.handler.js';
import { ShareCodes } from './share-codes.js';
import { ShareDirectory } from './public/shares.read-model.js';

/**
 * The partner locator (interface.md, "Partner locator"): share codes,
 * pairings, check-ins and erasure. Controllers dispatch through CommandBus
 * and QueryBus; each command's @CommandHandler runs its declaration through
 * the platform's pipeline. The `locator_shares` projection lives in projections/.
 */
@Module({
  imports: [AccountsModule],
  controllers: [
    IssueShareCodeController,
    RedeemShareCodeController,
    CancelShareCodeController,
    ListViewersController,
    ListWatchingController,
    RevokePairingController,
    CheckInController,
    // After the fixed paths above: `:targetId/location` must not shadow them.
    GetLocationController,
    ErasePositionsController,
  ],
  providers: [
    { provide: ShareCodes, inject: [DATA_KEY_VAULT], useFactory: (vault: DataKeyVault) => new ShareCodes(vault) },
    {
      provide: PositionSealing,
      inject: [DATA_KEY_VAULT, EVENT_STORE, EventRegistry],
      useFactory: (vault: DataKeyVault, events: EventStore, registry: EventRegistry) => new PositionSealing(vault, events, registry),
    },
    { provide: ShareDirectory, inject: [READ_STORE], useFactory: (readStore: ReadStore) => new ShareDirectory(readStore) },
    { provide: AccountNames, inject: [{ token: ACCOUNT_DIRECTORY, optional: true }], useFactory: (directory?: AccountDirectory) => new AccountNames(directory) },
    RedeemAttempts,
    IssueShareCodeHandler,
    RedeemShareCodeHandler,
    CancelShareCodeHandler,
    RevokePairingHandler,
    CheckInHandler,
    RecordErasureHandler,
    ErasePositionsHandler,
    GetLocationHandler,
    ListViewersHandler,
    ListWatchingHandler,
  ],
})
export class LocatorModule {}
