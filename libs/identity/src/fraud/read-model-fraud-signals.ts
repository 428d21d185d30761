import { collectionName, type ReadCollection, type ReadStore } from '../../../platform/src/index.js';
import type { FraudSignals } from './fraud-signals.port.js';
import { IDENTITY_SIGNAL_INDEXES, IDENTITY_SIGNALS_READ_MODEL, linkDocId, linkedCustomersOf, observationsDocId, observationsOf, type IdentitySignalDoc } from '../public/identity-signals.read-model.js';

/** The fraud signals as the `identity_signals` read model holds them (document reads by id, no scans). */
export class ReadModelFraudSignals implements FraudSignals {
  private collection?: Promise<ReadCollection<IdentitySignalDoc>>;

  constructor(private readonly readStore: ReadStore) {}

  readonly velocity: FraudSignals['velocity'] = {
    observationsOf: async (accountId, { customer_hash, device_hash }) => {
      const docs = await Promise.all([
        this.get(observationsDocId(accountId, 'customer', customer_hash)),
        device_hash === null ? undefined : this.get(observationsDocId(accountId, 'device', device_hash)),
      ]);
      return docs.flatMap(observationsOf);
    },
  };

  readonly ipBulk: FraudSignals['ipBulk'] = {
    customersFromIp: async (accountId, ipHash) => linkedCustomersOf(await this.get(linkDocId(accountId, 'ip', ipHash))),
  };

  readonly deviceBulk: FraudSignals['deviceBulk'] = {
    customersOnDevice: async (accountId, deviceHash) => linkedCustomersOf(await this.get(linkDocId(accountId, 'device', deviceHash))),
  };

  readonly syntheticIdentity: FraudSignals['syntheticIdentity'] = {
    customersSharing: (accountId, identifiers) =>
      Promise.all(identifiers.map(async ({ kind, hash }) => ({ kind, linked: linkedCustomersOf(await this.get(linkDocId(accountId, kind, hash))) }))),
  };

  private async get(id: string): Promise<IdentitySignalDoc | undefined> {
    this.collection ??= this.readStore.collection<IdentitySignalDoc>(collectionName(IDENTITY_SIGNALS_READ_MODEL), IDENTITY_SIGNAL_INDEXES);
    return (await this.collection).get(id);
  }
}
