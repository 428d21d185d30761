import { createPublicKey, verify, type JsonWebKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { EventRegistry } from '../../platform/src/index.js';
import { readStoredEvents, upcastStoredEvents } from '../../../test/support/stored-events.js';
import type { AuditCheckpointSigned } from './domain/checkpoint.js';
import { leaseHolder, type RetentionEvent } from './domain/retention.js';
import { complianceEventTypes } from './event-types.js';

/** Stored JSON from schema version 1 must still read as today's shape, and its signatures still verify with the JWKS it came with. */
const file = new URL('./__fixtures__/audit-checkpoint-signed.v1.json', import.meta.url);
const stored = readStoredEvents(file);
const jwks = (JSON.parse(readFileSync(file, 'utf8')) as { jwks: { keys: Array<JsonWebKey & { kid: string }> } }).jwks;

describe('compliance event types', () => {
  const registry = new EventRegistry().register(...complianceEventTypes);

  it('registers every compliance event type with a version', () => {
    expect(registry.version('AuditCheckpointSigned')).toBe(1);
    for (const type of ['AuditRetentionLeaseTaken', 'AuditRetentionLeaseRenewed', 'AuditRetentionRunEnded']) expect(registry.version(type)).toBe(1);
  });

  it('reads the version-1 lease events, and the lease they leave is held until its renewal runs out, then free once ended', () => {
    const events = upcastStoredEvents<RetentionEvent>(registry, readStoredEvents(new URL('./__fixtures__/audit-retention.v1.json', import.meta.url)), 'audit_retention');
    const here = { host: 'elsewhere', alive: () => true };
    expect(leaseHolder(events[0], new Date('2026-11-27T03:05:00Z'), here)).toEqual({ holder: { host: 'worker-1', pid: 4242, role: 'worker' }, until: '2026-11-27T03:10:00.000Z' });
    expect(leaseHolder(events[1], new Date('2026-11-27T03:12:00Z'), here)?.until).toBe('2026-11-27T03:16:00.000Z');
    expect(leaseHolder(events[1], new Date('2026-11-27T03:16:00Z'), here)).toBeNull();
    expect(leaseHolder(events[1], new Date('2026-11-27T03:12:00Z'), { host: 'worker-1', alive: () => false })).toBeNull();
    expect(leaseHolder(events[2], new Date('2026-11-27T03:08:00Z'), here)).toBeNull();
  });

  it('reads a version-1 checkpoint whose signed heads still verify and match their claims', () => {
    const [event] = upcastStoredEvents<AuditCheckpointSigned>(registry, stored, 'audit_checkpoints');
    expect(event.data.heads).toHaveLength(1);
    for (const head of event.data.heads) {
      const [header, payload, signature] = head.token.split('.');
      const key = jwks.keys.find((candidate) => candidate.kid === head.kid)!;
      expect(verify(null, Buffer.from(`${header}.${payload}`), createPublicKey({ key, format: 'jwk' }), Buffer.from(signature, 'base64url'))).toBe(true);
      expect(JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'))).toMatchObject({ stream: head.stream, seq: head.seq, hash: head.hash });
    }
  });
});
