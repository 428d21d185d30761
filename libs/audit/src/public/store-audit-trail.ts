import { StreamNotFoundError, type EventStore, type RecordedEvent } from '../../../platform/src/index.js';
import { accessStream, chainHash, GENESIS_HASH, type ApiAccessRecorded } from '../domain/access-events.js';
import type { AuditTrail, ChainCheck, ChainEntry } from './audit-trail.port.js';

/** Events read from the store at once. */
const PAGE = 5000;
const ACCESS_RECORDED: ApiAccessRecorded['type'] = 'ApiAccessRecorded';
/** Every chain's stream starts so (accessStream); the embedded store reads such prefixes from its category index. */
const CHAIN_PREFIX = accessStream('');

/**
 * The AuditTrail over the event store: each chain is the stream the recorder
 * appends to (`access_log-<account>`), its revisions the entries' sequence
 * numbers. `settle` is what the process has to make its answered requests
 * readable (its recorder's `applied`, or the journal a stopped api process
 * left); the rest only reads, except `trim`, which truncates a stream once
 * compliance has archived it (docs/adr/0024).
 */
export class StoreAuditTrail implements AuditTrail {
  readonly genesis = GENESIS_HASH;

  constructor(
    private readonly events: EventStore,
    private readonly settlement: () => Promise<'settled' | 'held'> = () => Promise.resolve('settled'),
  ) {}

  chainOf(accountId: string | null): string {
    return accessStream(accountId);
  }

  isChain(id: string): boolean {
    return id.startsWith(CHAIN_PREFIX) && id.length > CHAIN_PREFIX.length;
  }

  async chains(progress?: (position: number, head: number, found: number) => void): Promise<string[]> {
    const found = new Set<string>();
    const head = progress ? await this.events.headPosition() : 0n;
    for (let after = 0n; ; ) {
      const page = await this.events.readAll({ after, maxCount: PAGE, streamPrefixes: [CHAIN_PREFIX] });
      if (page.length === 0) break;
      for (const event of page) if (this.isChain(event.streamName)) found.add(event.streamName);
      after = page[page.length - 1].position;
      progress?.(Number(after), Number(head > after ? head : after), found.size);
    }
    return [...found].sort();
  }

  async entries(chain: string, fromSeq = 0, limit = Infinity): Promise<ChainEntry[]> {
    const out: ChainEntry[] = [];
    // Revisions are sequence numbers in a chain the recorder wrote; trimmed entries are simply not there any more.
    let from = BigInt(fromSeq);
    while (out.length < limit) {
      const want = Math.min(PAGE, limit - out.length);
      let page: RecordedEvent[];
      try {
        page = await this.events.readStream(chain, { fromRevision: from, maxCount: want });
      } catch (error) {
        if (error instanceof StreamNotFoundError) return out;
        throw error;
      }
      for (const event of page) if (event.type === ACCESS_RECORDED) out.push(event.data as ChainEntry);
      if (page.length < want) return out;
      from = page[page.length - 1].revision + 1n;
    }
    return out;
  }

  async head(chain: string): Promise<ChainEntry | null> {
    let page: RecordedEvent[];
    try {
      page = await this.events.readStream(chain, { direction: 'backwards', maxCount: 1 });
    } catch (error) {
      if (error instanceof StreamNotFoundError) return null;
      throw error;
    }
    const last = page[0];
    return last && last.type === ACCESS_RECORDED ? (last.data as ChainEntry) : null;
  }

  async headsAfter(after: bigint): Promise<{ heads: Map<string, ChainEntry>; position: bigint }> {
    const heads = new Map<string, ChainEntry>();
    let position = after;
    for (;;) {
      const page = await this.events.readAll({ after: position, maxCount: PAGE });
      for (const event of page) {
        position = event.position;
        if (event.type === ACCESS_RECORDED) heads.set(event.streamName, event.data as ChainEntry);
      }
      if (page.length < PAGE) return { heads, position };
    }
  }

  verify(entries: ReadonlyArray<ChainEntry>, from: { seq: number; prevHash: string } = { seq: 0, prevHash: GENESIS_HASH }): ChainCheck {
    let prevHash = from.prevHash;
    for (let index = 0; index < entries.length; index++) {
      const { seq, prev_hash, hash, ...entry } = entries[index];
      const expectedSeq = from.seq + index;
      const broken = (fault: 'gap' | 'link' | 'edit', reason: string): ChainCheck => ({ ok: false, entries: entries.length, brokenAt: index, seq, expectedSeq, fault, reason });
      // The same checks and words as verifyChain (domain/access-events.ts), from any starting link.
      if (seq !== expectedSeq) return broken('gap', `sequence gap: expected ${expectedSeq}, found ${seq}`);
      if (prev_hash !== prevHash) return broken('link', 'previous-hash link broken (an entry was removed or reordered)');
      if (chainHash(prev_hash, seq, entry) !== hash) return broken('edit', 'hash mismatch (the entry was edited)');
      prevHash = hash;
    }
    return { ok: true, entries: entries.length, head: prevHash };
  }

  async trim(chain: string, throughSeq: number): Promise<void> {
    const head = await this.head(chain);
    if (!head) return;
    await this.events.truncateBefore(chain, BigInt(Math.min(throughSeq + 1, head.seq)));
  }

  settle(): Promise<'settled' | 'held'> {
    return this.settlement();
  }
}
