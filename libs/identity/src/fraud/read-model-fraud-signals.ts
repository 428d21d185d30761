import { collectionName, type ReadCollection, type ReadStore } from '../../../platform/src/index.js';
import { UNKNOWN_ACCURACY_M } from '../domain/kyc.js';
import type { LocationEvidence } from '../evidence/location-evidence.port.js';
import { IDENTITY_SIGNAL_INDEXES, IDENTITY_SIGNALS_READ_MODEL, linkDocId, linkedCustomersOf, observationsDocId, observationsOf, type IdentitySignalDoc } from '../public/identity-signals.read-model.js';
import type { IdentitySealing } from '../sealing/identity-sealing.js';
import type { FraudSignals } from './fraud-signals.port.js';

/**
 * The fraud signals as the `identity_signals` read model holds them (document
 * reads by id, no scans), the observations opened with their customers' keys;
 * and the customer's recorded pings, read through monitoring's port (opened
 * there with the same key, answered only under a granted consent).
 */
export class ReadModelFraudSignals implements FraudSignals {
  private collection?: Promise<ReadCollection<IdentitySignalDoc>>;

  constructor(
    private readonly readStore: ReadStore,
    private readonly sealing: IdentitySealing,
    private readonly evidence: LocationEvidence,
  ) {}

  readonly velocity: FraudSignals['velocity'] = {
    observationsOf: async (accountId, { customer_hash, device_hash }) => {
      const docs = await Promise.all([
        this.get(observationsDocId(accountId, 'customer', customer_hash)),
        device_hash === null ? undefined : this.get(observationsDocId(accountId, 'device', device_hash)),
      ]);
      return this.sealing.openObservations(accountId, docs.flatMap(observationsOf));
    },
    recordedPingsOf: async (accountId, customerId, since, limit) => {
      const found = await this.evidence.recordedPings(accountId, customerId, since, limit);
      if (found.consent !== 'granted') return [];
      return found.pings.map((ping) => ({ lat: ping.lat, lng: ping.lng, accuracy_m: ping.accuracy_m ?? UNKNOWN_ACCURACY_M, observed_at: ping.recorded_at }));
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
