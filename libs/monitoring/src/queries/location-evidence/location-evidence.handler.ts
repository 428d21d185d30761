import { StreamNotFoundError, type EventRegistry, type EventStore, type RecordedEvent } from '../../../../platform/src/index.js';
import { consentStream, evolveConsent, initialConsentState, type ConsentEvent, type ConsentState } from '../../domain/consent.js';
import { locationStream, type LocationEvent, type PingRecorded } from '../../domain/location.js';

/** Opens a stored location event with its customer's data key (the monitoring LocationSealing); undefined once the key is destroyed. */
export interface LocationOpener {
  open(event: Pick<RecordedEvent, 'type' | 'data' | 'streamName'>): Promise<LocationEvent | undefined>;
}

export interface RecordedPing {
  lat: number;
  lng: number;
  accuracy_m: number | null;
  recorded_at: string;
}

/** Location events read per page, newest first. */
const PAGE = 500;

/**
 * A customer's recorded pings, for another context's evidence (the identity
 * context's KYC): only while location consent is granted, opened with the
 * customer's key (after an erasure there is nothing to open), newest first.
 * Reads the consent and location streams directly: both are the customer's
 * own, short of a very active phone, and this runs once per verification.
 */
export class LocationEvidenceReader {
  constructor(
    private readonly events: EventStore,
    private readonly registry: EventRegistry,
    private readonly sealing: LocationOpener,
  ) {}

  async recordedPings(accountId: string, customerId: string, since: Date, limit: number): Promise<{ consent: 'granted'; pings: RecordedPing[] } | { consent: 'not_granted' }> {
    if ((await this.consent(accountId, customerId)).status !== 'granted') return { consent: 'not_granted' };
    const cutoff = since.toISOString();
    const pings: RecordedPing[] = [];
    const stream = locationStream(accountId, customerId);
    let before: bigint | undefined;
    for (;;) {
      const page = await this.page(stream, before);
      for (const stored of page) {
        if (stored.type !== 'PingRecorded') continue;
        // Clear on every stored ping: pages older than the window need not be opened.
        if (typeof stored.data.recorded_at === 'string' && stored.data.recorded_at < cutoff) continue;
        const opened = await this.sealing.open(stored);
        if (!opened) continue;
        const { data } = this.registry.upcast({ ...stored, data: opened.data as unknown as Record<string, unknown> }) as unknown as PingRecorded;
        pings.push({ lat: data.lat, lng: data.lng, accuracy_m: data.accuracy_m, recorded_at: data.recorded_at });
      }
      // Pings arrive late and out of order, so a page is read whole; a page entirely before the window ends the walk.
      const oldest = page.at(-1);
      if (page.length < PAGE || !oldest || pings.length >= limit || page.every((event) => typeof event.data.recorded_at === 'string' && event.data.recorded_at < cutoff)) break;
      before = oldest.revision;
    }
    pings.sort((a, b) => b.recorded_at.localeCompare(a.recorded_at));
    return { consent: 'granted', pings: pings.slice(0, limit) };
  }

  private async consent(accountId: string, customerId: string): Promise<ConsentState> {
    let stored: RecordedEvent[];
    try {
      stored = await this.events.readStream(consentStream(accountId, customerId));
    } catch (error) {
      if (error instanceof StreamNotFoundError) return initialConsentState;
      throw error;
    }
    return stored.map((event) => this.registry.upcast(event)).reduce((state, event) => evolveConsent(state, { type: event.type, data: event.data } as unknown as ConsentEvent), initialConsentState);
  }

  private async page(stream: string, before: bigint | undefined): Promise<RecordedEvent[]> {
    if (before === 0n) return [];
    try {
      return await this.events.readStream(stream, { direction: 'backwards', maxCount: PAGE, ...(before === undefined ? {} : { fromRevision: before - 1n }) });
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
  }
}
