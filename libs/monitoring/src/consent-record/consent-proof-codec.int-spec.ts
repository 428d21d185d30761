import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EmbeddedDataKeyVault, SecretBox, type RecordedEvent } from '../../../platform/src/index.js';
import { ConsentProofCodec } from './consent-proof-codec.js';
import { ConsentRecordSealing } from './consent-record-sealing.js';

describe('consent proof codec (docs/adr/0055)', () => {
  it("stores a grant's proof reference sealed under the record key, opens it, and opens the grant without it once the key is destroyed", async () => {
    const vault = await EmbeddedDataKeyVault.open(mkdtempSync(path.join(tmpdir(), 'consent-proof-')), SecretBox.fromKey(randomBytes(32)));
    const codec = new ConsentProofCodec(vault);
    const stream = 'consent-acct_p:cust-1';
    const grant = { account_id: 'acct_p', customer_id: 'cust-1', purpose: 'loan_collections', scope: ['location'], granted_at: '2026-12-01T09:00:00.000Z', consent_id: 'cr_1', proof: { kind: 'otp', reference: 'otp-4471-secret' }, pseudonym: 'pseudo-1', customer_sealed: null };
    const session = codec.session(stream);
    const stored = await session.seal({ type: 'ConsentGranted', data: grant });
    expect(JSON.stringify(stored.data)).not.toContain('otp-4471-secret');
    expect(stored.data.proof).toEqual({ kind: 'otp', key_id: expect.any(String), sealed: expect.any(String) });
    const recorded = (data: Record<string, unknown>, streamName = stream): RecordedEvent => ({ id: 'e', streamName, type: 'ConsentGranted', data, metadata: {}, revision: 0n, position: 1n, createdAt: new Date() });
    expect((await codec.open(recorded(JSON.parse(JSON.stringify(stored.data))))).data).toEqual(grant);
    // Grants stored before (proof in the clear), and other events, pass as they are.
    expect((await codec.open(recorded(grant))).data).toBe(grant);
    const revoked = { ...recorded({ account_id: 'acct_p' }), type: 'ConsentRevoked' };
    expect(await codec.open(revoked)).toBe(revoked);
    // Moved to another customer's stream, it does not open.
    expect((await codec.open(recorded(stored.data, 'consent-acct_p:cust-2'))).data).not.toHaveProperty('proof');

    await vault.destroy(ConsentRecordSealing.subject('acct_p', 'pseudo-1'));
    const { proof: _proof, ...withoutProof } = grant;
    expect((await codec.open(recorded(stored.data))).data).toEqual(withoutProof);
    await vault.close();
  });
});
