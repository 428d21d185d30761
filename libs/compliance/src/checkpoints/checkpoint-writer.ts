import { ConcurrencyError, StreamNotFoundError, type Clock, type EventRegistry, type EventStore, type RecordedEvent } from '../../../platform/src/index.js';
import type { AuditTrail } from '../../../audit/src/index.js';
import type { SigningKeys } from '../../../identity/src/index.js';
import { CHECKPOINT_STREAM, movedHeads, type AuditCheckpointSigned, type ChainHead, type CheckpointClaims, type SignedHead } from '../domain/checkpoint.js';

const PAGE = 5000;

/** The identity context's signing keys as the writer needs them. */
export type CheckpointKeys = Pick<SigningKeys, 'signJson'>;

/** Signs checkpoint claims as a compact JWS (EdDSA; `kid` and `typ` in the protected header). */
export async function signCheckpoint(keys: CheckpointKeys, claims: CheckpointClaims): Promise<SignedHead> {
  const { kid, jws } = await keys.signJson(claims, 'audit-checkpoint');
  return { ...claims, kid, token: jws };
}

/**
 * One checkpoint round (docs/adr/0023): reads the log after the previous
 * round's position, takes the newest entry of every access chain that moved,
 * signs each head, and appends one `AuditCheckpointSigned` to
 * `audit_checkpoints` expecting the revision it read, so two instances
 * running a round at once store it once (the loser finds nothing new next
 * time). The integration relay publishes the event to Kafka like any other.
 */
export class CheckpointWriter {
  constructor(
    private readonly events: EventStore,
    private readonly registry: EventRegistry,
    private readonly trail: Pick<AuditTrail, 'headsAfter' | 'head'>,
    private readonly keys: CheckpointKeys,
    private readonly clock: Clock,
  ) {}

  /** Returns the stored checkpoint, or null when no chain moved (or another instance stored this round). */
  async round(): Promise<AuditCheckpointSigned['data'] | null> {
    const previous = await this.latest();
    const start = previous.last ? BigInt(previous.last.log_position) : 0n;
    const { heads: changed, position: after } = await this.trail.headsAfter(start);
    const latest = new Map<string, ChainHead>();
    for (const [stream, entry] of changed) latest.set(stream, { stream, seq: entry.seq, hash: entry.hash, entry_at: entry.at });
    // Every chain with an entry after the previous round's position moved since its last checkpoint.
    const moved = movedHeads(latest, new Map());
    if (moved.length === 0 || after === start) return null;
    const signedAt = this.clock.now().toISOString();
    const heads: SignedHead[] = [];
    for (const head of moved) heads.push(await signCheckpoint(this.keys, { typ: 'audit-checkpoint', ...head, signed_at: signedAt }));
    const data: AuditCheckpointSigned['data'] = { signed_at: signedAt, log_position: after.toString(), heads };
    try {
      await this.events.append(CHECKPOINT_STREAM, [{ type: 'AuditCheckpointSigned', data: data as Record<string, unknown>, metadata: this.registry.metadataFor('AuditCheckpointSigned') }], previous.revision ?? 'no_stream');
    } catch (error) {
      if (error instanceof ConcurrencyError) return null;
      throw error;
    }
    return data;
  }

  /**
   * Signs the head of one chain now, when its newest entry is past its latest
   * signed head (issue 30: an export is complete the moment it is produced).
   * Stored like a round, in the same `audit_checkpoints` stream with the
   * expected revision it read, so the checkpoints stay one chain; it carries
   * the previous round's `log_position` forward, so the next round still
   * looks at everything after it. Returns the head now signed (or already
   * signed), or null when the chain has no entry.
   */
  async signHead(stream: string): Promise<SignedHead | null> {
    const head = await chainHead(this.trail, stream);
    return head ? this.sign(head, (covered) => covered.at(-1)?.seq !== undefined && covered.at(-1)!.seq >= head.seq ? covered.at(-1)! : undefined) : null;
  }

  /** Signs one given entry (the last of an archived month, docs/adr/0024) unless a checkpoint of exactly it is stored. */
  async signEntry(head: ChainHead): Promise<SignedHead> {
    return this.sign(head, (covered) => covered.find((signed) => signed.seq === head.seq && signed.hash === head.hash));
  }

  private async sign(head: ChainHead, existing: (covered: SignedHead[]) => SignedHead | undefined, attempts = 5): Promise<SignedHead> {
    const stream = head.stream;
    for (let attempt = 1; ; attempt++) {
      const previous = await this.latest();
      const found = existing(await checkpointsOf(this.events, stream));
      if (found) return found;
      const signedAt = this.clock.now().toISOString();
      const signed = await signCheckpoint(this.keys, { typ: 'audit-checkpoint', ...head, signed_at: signedAt });
      const data: AuditCheckpointSigned['data'] = { signed_at: signedAt, log_position: previous.last?.log_position ?? '0', heads: [signed], on_demand: true };
      try {
        await this.events.append(CHECKPOINT_STREAM, [{ type: 'AuditCheckpointSigned', data: data as Record<string, unknown>, metadata: this.registry.metadataFor('AuditCheckpointSigned') }], previous.revision ?? 'no_stream');
        return signed;
      } catch (error) {
        // Another round or export stored first: look again (it may already cover this head).
        if (!(error instanceof ConcurrencyError) || attempt >= attempts) throw error;
      }
    }
  }

  private async latest(): Promise<{ last?: AuditCheckpointSigned['data']; revision?: bigint }> {
    try {
      const [event] = await this.events.readStream(CHECKPOINT_STREAM, { direction: 'backwards', maxCount: 1 });
      return event ? { last: event.data as AuditCheckpointSigned['data'], revision: event.revision } : {};
    } catch (error) {
      if (error instanceof StreamNotFoundError) return {};
      throw error;
    }
  }
}

/** The newest entry of an access chain as a checkpoint names it, or null when it has none. */
export async function chainHead(trail: Pick<AuditTrail, 'head'>, stream: string): Promise<ChainHead | null> {
  const last = await trail.head(stream);
  return last ? { stream, seq: last.seq, hash: last.hash, entry_at: last.at } : null;
}

/** Every stored checkpoint, oldest first. */
export async function readCheckpoints(events: EventStore): Promise<Array<{ data: AuditCheckpointSigned['data']; revision: bigint }>> {
  const out: Array<{ data: AuditCheckpointSigned['data']; revision: bigint }> = [];
  let from = 0n;
  for (;;) {
    let page: RecordedEvent[];
    try {
      page = await events.readStream(CHECKPOINT_STREAM, { fromRevision: from, maxCount: PAGE });
    } catch (error) {
      if (error instanceof StreamNotFoundError) return out;
      throw error;
    }
    for (const event of page) out.push({ data: event.data as AuditCheckpointSigned['data'], revision: event.revision });
    if (page.length < PAGE) return out;
    from = page[page.length - 1].revision + 1n;
  }
}

/** The signed heads of one chain, oldest first. */
export async function checkpointsOf(events: EventStore, stream: string): Promise<SignedHead[]> {
  return (await readCheckpoints(events)).flatMap(({ data }) => data.heads.filter((head) => head.stream === stream));
}

/** Every chain's signed heads, oldest first, from one read of the checkpoint stream (`audit:verify` over many chains). */
export async function checkpointsByStream(events: EventStore): Promise<Map<string, SignedHead[]>> {
  const byStream = new Map<string, SignedHead[]>();
  for (const { data } of await readCheckpoints(events)) {
    for (const head of data.heads) {
      const heads = byStream.get(head.stream) ?? [];
      heads.push(head);
      byStream.set(head.stream, heads);
    }
  }
  return byStream;
}
