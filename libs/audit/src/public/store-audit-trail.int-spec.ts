import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EmbeddedEventStore, EventRegistry, type EventStore } from '../../../platform/src/index.js';
import { GENESIS_HASH, verifyChain } from '../domain/access-events.js';
import { auditEventTypes } from '../event-types.js';
import { accessEntry as entry } from '../recording/testing/access-entry.js';
import { StoreAccessRecorder } from './access-recorder.js';
import type { ChainEntry } from './audit-trail.port.js';
import { StoreAuditTrail } from './store-audit-trail.js';

/** The AuditTrail port (docs/adr/0065) over the chains the recorder writes: what compliance reads, verifies and trims through it. */
describe('StoreAuditTrail', () => {
  let events: EventStore;
  let trail: StoreAuditTrail;
  const registry = new EventRegistry().register(...auditEventTypes);

  beforeEach(async () => {
    events = await EmbeddedEventStore.open(mkdtempSync(path.join(tmpdir(), 'audit-trail-')));
    trail = new StoreAuditTrail(events);
    const recorder = new StoreAccessRecorder(events, registry);
    for (let index = 0; index < 6; index++) await recorder.record(entry('acct_1', `a${index}`));
    for (let index = 0; index < 2; index++) await recorder.record(entry(null, `p${index}`));
    // Another context's stream in the log: never a chain.
    await events.append('signing_keys-service', [{ type: 'Unrelated', data: {} }], 'no_stream');
  });
  afterEach(() => events.close());

  it('names chains by account, tells them from other text, and lists those the log holds', async () => {
    expect(trail.chainOf('acct_1')).not.toBe(trail.chainOf(null));
    expect(trail.isChain(trail.chainOf('acct_1'))).toBe(true);
    expect(trail.isChain('signing_keys-service')).toBe(false);
    expect(trail.isChain('audit_checkpoints')).toBe(false);
    const pages: number[] = [];
    expect(await trail.chains((_position, _head, found) => pages.push(found))).toEqual([trail.chainOf('acct_1'), trail.chainOf(null)].sort());
    expect(pages.at(-1)).toBe(2);
  });

  it('reads a chain in order from any seq, bounded, and its head; an unknown chain has none', async () => {
    const chain = trail.chainOf('acct_1');
    expect((await trail.entries(chain)).map((e) => e.request_id)).toEqual(['a0', 'a1', 'a2', 'a3', 'a4', 'a5']);
    expect((await trail.entries(chain, 2, 3)).map((e) => e.seq)).toEqual([2, 3, 4]);
    expect(await trail.head(chain)).toMatchObject({ seq: 5, request_id: 'a5' });
    expect(await trail.entries(trail.chainOf('acct_none'))).toEqual([]);
    expect(await trail.head(trail.chainOf('acct_none'))).toBeNull();
  });

  it('gives the newest entry of each chain that moved after a log position, and the position read to', async () => {
    const all = await trail.headsAfter(0n);
    expect([...all.heads].map(([chain, head]) => [chain, head.seq])).toEqual([
      [trail.chainOf('acct_1'), 5],
      [trail.chainOf(null), 1],
    ]);
    expect(all.position).toBe(await events.headPosition());
    const later = await new StoreAccessRecorder(events, registry).record(entry(null, 'p2')).then(() => trail.headsAfter(all.position));
    expect([...later.heads].map(([chain, head]) => [chain, head.seq])).toEqual([[trail.chainOf(null), 2]]);
    expect(await trail.headsAfter(later.position)).toEqual({ heads: new Map(), position: later.position });
  });

  it('verifies as the domain verifier does from the genesis, and a piece from a given link; names the fault', async () => {
    const chain = await trail.entries(trail.chainOf('acct_1'));
    expect(trail.verify(chain)).toEqual(verifyChain(chain));
    expect(trail.verify(chain)).toMatchObject({ ok: true, entries: 6, head: chain[5].hash });
    expect(trail.genesis).toBe(GENESIS_HASH);
    expect(trail.verify(chain.slice(3), { seq: 3, prevHash: chain[2].hash })).toMatchObject({ ok: true, entries: 3 });

    const edited: ChainEntry[] = chain.map((e, index) => (index === 2 ? { ...e, status: 500 } : e));
    const domain = verifyChain(edited);
    expect(domain.ok).toBe(false);
    expect(trail.verify(edited)).toMatchObject({ ok: false, brokenAt: 2, seq: 2, fault: 'edit', reason: domain.ok ? null : domain.reason });
    expect(trail.verify([...chain.slice(0, 2), ...chain.slice(3)])).toMatchObject({ ok: false, brokenAt: 2, seq: 3, expectedSeq: 2, fault: 'gap' });
    expect(trail.verify(chain.slice(3), { seq: 3, prevHash: chain[1].hash })).toMatchObject({ ok: false, brokenAt: 0, seq: 3, fault: 'link' });
  });

  it('trims archived entries but keeps the newest, which the recorder links the next entry to', async () => {
    const chain = trail.chainOf('acct_1');
    await trail.trim(chain, 2);
    expect((await trail.entries(chain)).map((e) => e.seq)).toEqual([3, 4, 5]);
    await trail.trim(chain, 5);
    expect((await trail.entries(chain)).map((e) => e.seq)).toEqual([5]);
    await new StoreAccessRecorder(events, registry).record(entry('acct_1', 'a6'));
    const live = await trail.entries(chain);
    expect(trail.verify(live, { seq: 5, prevHash: live[0].prev_hash })).toMatchObject({ ok: true, entries: 2 });
  });

  it('settles through what the process gives it', async () => {
    expect(await trail.settle()).toBe('settled');
    expect(await new StoreAuditTrail(events, () => Promise.resolve('held')).settle()).toBe('held');
  });
});
