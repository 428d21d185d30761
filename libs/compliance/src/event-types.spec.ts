import { createPublicKey, verify, type JsonWebKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { EventRegistry } from '../../platform/src/index.js';
import { readStoredEvents, upcastStoredEvents } from '../../../test/support/stored-events.js';
import type { AuditCheckpointSigned } from './domain/checkpoint.js';
import { complianceEventTypes } from './event-types.js';

/** Stored JSON from schema version 1 must still read as today's shape, and its signatures still verify with the JWKS it came with. */
const file = new URL('./__fixtures__/audit-checkpoint-signed.v1.json', import.meta.url);
const stored = readStoredEvents(file);
const jwks = (JSON.parse(readFileSync(file, 'utf8')) as { jwks: { keys: Array<JsonWebKey & { kid: string }> } }).jwks;

describe('compliance event types', () => {
  const registry = new EventRegistry().register(...complianceEventTypes);

  it('registers every compliance event type with a version', () => {
    expect(registry.version('AuditCheckpointSigned')).toBe(1);
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
