import type { CommandPipeline, EventStore } from '../../../platform/src/index.js';
import { consentNoticeStream, initialNoticeRegistryState, noticeRegistryDecider, type NoticeRegistryState } from '../domain/consent-notice.js';

/** How the registry's stream is folded (one definition object: the pipeline keeps per-definition wiring). */
const REGISTRY = { decider: noticeRegistryDecider };
/** Registries kept folded in memory (hashes only, at most NOTICES_PER_ACCOUNT_MAX small entries each). */
const CACHED_ACCOUNTS = 2000;

/**
 * An account's notice registry as grants and GET /v2/consent/notices read it
 * (docs/adr/0059). The stream holds each notice's text (up to 64 KiB), so its
 * folded state (hashes only) is kept per account and reused while the
 * stream's revision is unchanged: one revision read per grant, the stream
 * read again only after a registration, in this process or another.
 * Provided by MonitoringModule (a factory over CommandPipeline and EVENT_STORE).
 */
export class ConsentNoticeRegistry {
  private readonly folded = new Map<string, { revision: bigint; state: NoticeRegistryState }>();

  constructor(
    private readonly commands: CommandPipeline,
    private readonly events: EventStore,
  ) {}

  async of(accountId: string): Promise<NoticeRegistryState> {
    const stream = consentNoticeStream(accountId);
    const revision = await this.events.streamRevision(stream);
    if (revision === undefined) return initialNoticeRegistryState;
    const cached = this.folded.get(accountId);
    if (cached && cached.revision === revision) {
      // Most recently used last: the first entry is the one to drop.
      this.folded.delete(accountId);
      this.folded.set(accountId, cached);
      return cached.state;
    }
    const loaded = await this.commands.read(REGISTRY, stream);
    if (loaded.revision !== undefined) {
      this.folded.delete(accountId);
      if (this.folded.size >= CACHED_ACCOUNTS) this.folded.delete(this.folded.keys().next().value!);
      this.folded.set(accountId, { revision: loaded.revision, state: loaded.state });
    }
    return loaded.state;
  }
}
