import type { ContextManifest, EventRegistry, EventStore, RecordedEvent } from '../../../platform/src/index.js';
import type { AuditTrail, ChainEntry } from '../../../audit/src/index.js';
import type { AsOfContributor, Change } from '../../../platform/src/index.js';

const PAGE = 5000;
/** Access entries listed in full; older ones are counted (the export bundle carries them all). */
export const ACCESS_HISTORY_LIMIT = 1000;

export interface OperatorAction {
  at: string;
  method: string;
  path: string;
  status: number;
  key_prefix: string;
  request_id: string;
}

export interface AsOfAnswer {
  account_id: string;
  at: string;
  /** Each contributor's part (`account`, `keys`, `users`, `consents`, `webhook`, `geofences`, and what later contexts add). */
  state: Record<string, unknown>;
  /** Every event that shaped that state, oldest first. */
  changes: Change[];
  /** Changing requests the operator key made on this account (from the platform access chain). */
  operator_actions: OperatorAction[];
  access: { total: number; entries: ChainEntry[]; truncated: boolean };
}

/**
 * The contributors of every context in this process (docs/adr/0023), as the
 * contexts declare them in their manifests (`asOf`); the replay folds what
 * each one owns.
 */
export class AsOfRegistry {
  private readonly contributors = new Map<string, AsOfContributor>();

  constructor(contributors: readonly AsOfContributor[] = []) {
    for (const contributor of contributors) this.register(contributor);
  }

  /** Every contribution the manifests declare, in the order of the manifests. */
  static fromManifests(manifests: readonly ContextManifest[]): AsOfRegistry {
    return new AsOfRegistry(manifests.flatMap((manifest) => manifest.asOf ?? []));
  }

  register(contributor: AsOfContributor): this {
    if (this.contributors.has(contributor.name)) throw new Error(`as-of contributor ${contributor.name} registered twice`);
    this.contributors.set(contributor.name, contributor);
    return this;
  }

  list(): AsOfContributor[] {
    return [...this.contributors.values()];
  }
}

/**
 * An account as it stood at `at`: one pass over the log collects the
 * account's streams (by the contributors' prefixes), each contributor folds
 * its streams' events dated up to `at` with its context's decider, and the
 * access chains (read through the audit context's AuditTrail) give the
 * history and the operator's changing requests.
 */
export async function replayAsOf(events: EventStore, registry: EventRegistry, contributors: AsOfRegistry, trail: Pick<AuditTrail, 'chainOf' | 'entries'>, accountId: string, at: Date): Promise<AsOfAnswer> {
  const limit = at.getTime();
  const all = contributors.list();
  const prefixes = all.map((contributor) => ({ contributor, prefixes: contributor.prefixes(accountId) }));
  // stream → [contributor, events]; a stream is owned by the first contributor that claims it.
  const owned = new Map<string, { contributor: AsOfContributor; events: RecordedEvent[] } | null>();
  let after = 0n;
  for (;;) {
    const page = await events.readAll({ after, maxCount: PAGE });
    if (page.length === 0) break;
    for (const stored of page) {
      after = stored.position;
      let slot = owned.get(stored.streamName);
      if (slot === undefined) {
        // Streams no prefix matches (most of the log) are skipped without being remembered.
        const candidate = prefixes.find(({ prefixes }) => prefixes.some((prefix) => stored.streamName.startsWith(prefix)));
        if (!candidate) continue;
        const event = registry.has(stored.type) ? registry.upcast(stored) : stored;
        slot = candidate.contributor.owns(stored.streamName, event, accountId) ? { contributor: candidate.contributor, events: [] } : null;
        owned.set(stored.streamName, slot);
      }
      if (!slot) continue;
      const event = registry.has(stored.type) ? registry.upcast(stored) : stored;
      if (Date.parse(slot.contributor.timeOf(event)) <= limit) slot.events.push(event);
    }
    if (page.length < PAGE) break;
  }
  const state: Record<string, unknown> = {};
  const changes: Change[] = [];
  for (const contributor of all) {
    const streams = new Map<string, RecordedEvent[]>();
    for (const [stream, slot] of owned) if (slot?.contributor === contributor && slot.events.length > 0) streams.set(stream, slot.events);
    const folded = contributor.fold(streams);
    state[contributor.name] = folded.state;
    changes.push(...folded.changes);
  }
  for (const contributor of all) if (contributor.resolve) state[contributor.name] = contributor.resolve(state[contributor.name], state);
  changes.sort((a, b) => a.at.localeCompare(b.at));

  const access = (await trail.entries(trail.chainOf(accountId))).filter((entry) => Date.parse(entry.at) <= limit);
  const operator_actions = (await trail.entries(trail.chainOf(null)))
    .filter((entry) => entry.principal_kind === 'admin' && entry.method !== 'GET' && Date.parse(entry.at) <= limit && mentions(entry.path, accountId))
    .map(({ at, method, path, status, key_prefix, request_id }) => ({ at, method, path, status, key_prefix, request_id }));
  return {
    account_id: accountId,
    at: at.toISOString(),
    state,
    changes,
    operator_actions,
    access: { total: access.length, entries: access.slice(-ACCESS_HISTORY_LIMIT), truncated: access.length > ACCESS_HISTORY_LIMIT },
  };
}

function mentions(path: string, accountId: string): boolean {
  return path.split(/[/?&=]/).includes(accountId);
}
