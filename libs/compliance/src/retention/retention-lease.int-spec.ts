import { mkdtempSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { EmbeddedEventStore, EventRegistry, type Clock } from '../../../platform/src/index.js';
import { complianceEventTypes } from '../event-types.js';
import { HeldRetentionLease, RetentionLease, RetentionLeaseLostError, RETENTION_LEASE_MS } from './retention-lease.js';

/** One archive run at a time across processes (docs/adr/0024): the lease is an append with the revision read. */
describe('the archive job lease', () => {
  const registry = new EventRegistry().register(...complianceEventTypes);
  let now = new Date('2026-06-01T00:00:00Z');
  const clock: Clock = { now: () => now };

  async function store() {
    return EmbeddedEventStore.open(path.join(mkdtempSync(path.join(tmpdir(), 'lease-')), 'store'));
  }

  it('is held by one of two racing takers; the other is told who holds it until when; ending it frees it', async () => {
    const events = await store();
    try {
      // Both look on behalf of a live process elsewhere (alive: always).
      const a = new RetentionLease(events, registry, clock, 'worker', RETENTION_LEASE_MS, () => true);
      const b = new RetentionLease(events, registry, clock, 'ops', RETENTION_LEASE_MS, () => true);
      const [first, second] = await Promise.all([a.acquire(), b.acquire()]);
      const held = [first, second].filter((lease) => lease instanceof HeldRetentionLease);
      expect(held).toHaveLength(1);
      const refused = [first, second].find((lease) => !(lease instanceof HeldRetentionLease)) as { held_by: { pid: number }; until: string };
      expect(refused).toEqual({ held_by: expect.objectContaining({ pid: process.pid }), until: new Date(now.getTime() + RETENTION_LEASE_MS).toISOString() });
      expect(await b.acquire()).not.toBeInstanceOf(HeldRetentionLease);
      await (held[0] as HeldRetentionLease).end({ outcome: 'completed', segments: 0, entries: 0 });
      expect(await b.acquire()).toBeInstanceOf(HeldRetentionLease);
    } finally {
      await events.close();
    }
  });

  it('runs out when not renewed, and the old holder learns it lost the lease at its next renewal', async () => {
    const events = await store();
    try {
      const a = new RetentionLease(events, registry, clock, 'worker', 1000, () => true);
      const b = new RetentionLease(events, registry, clock, 'worker', 1000, () => true);
      const held = (await a.acquire()) as HeldRetentionLease;
      now = new Date(now.getTime() + 400);
      await held.renewIfDue(); // not due yet: nothing appended
      expect(await b.acquire()).not.toBeInstanceOf(HeldRetentionLease);
      now = new Date(now.getTime() + 1000);
      expect(await b.acquire()).toBeInstanceOf(HeldRetentionLease);
      await expect(held.renewIfDue()).rejects.toBeInstanceOf(RetentionLeaseLostError);
      expect(await held.end({ outcome: 'completed', segments: 0, entries: 0 })).toBe(false);
    } finally {
      await events.close();
    }
  });

  it('is free at once when its holder on this host is a dead process (SIGKILLed: it ended nothing)', async () => {
    const events = await store();
    try {
      const dead = new Set<number>();
      const alive = (pid: number) => !dead.has(pid);
      const a = new RetentionLease(events, registry, clock, 'ops', RETENTION_LEASE_MS, alive);
      const held = (await a.acquire()) as HeldRetentionLease;
      expect(held.holder).toEqual({ host: hostname(), pid: process.pid, role: 'ops' });
      expect(await a.acquire()).not.toBeInstanceOf(HeldRetentionLease);
      dead.add(process.pid);
      expect(await a.acquire()).toBeInstanceOf(HeldRetentionLease);
    } finally {
      await events.close();
    }
  });
});
