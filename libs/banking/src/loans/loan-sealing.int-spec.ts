import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { customerDataKeySubject, EmbeddedDataKeyVault, SecretBox, type RecordedEvent } from '../../../platform/src/index.js';
import { evolveLoan, initialLoanState, loanStream, type LoanEvent } from '../domain/loan.js';
import { LoanSealing } from './loan-sealing.js';

describe('loan sealing (docs/adr/0055)', () => {
  const pseudonyms = { of: () => 'pseudonym-of-the-borrower' };
  const terms = { customer_id: 'cust-sealed-7', zone: { type: 'point', lat: 5.612345, lng: -0.198765, radius_m: 300 }, anchor: { lat: 5.612345, lng: -0.198765 }, expected_collection_days: 7 };

  it('stores the zone and anchor sealed under the borrower’s data key, opens them for the fold, and leaves them out once the key is destroyed', async () => {
    const vault = await EmbeddedDataKeyVault.open(mkdtempSync(path.join(tmpdir(), 'loan-sealing-')), SecretBox.fromKey(randomBytes(32)));
    const sealing = await LoanSealing.open(vault, pseudonyms);
    const stream = loanStream('acct_s', 'loan-9');
    const data = { account_id: 'acct_s', loan_id: 'loan-9', ...terms, registered_at: '2026-12-01T09:00:00.000Z' };
    const stored = await sealing.seal(stream, { type: 'CollectionLoanRegistered', data, metadata: { schema_version: 1 } });
    // In the clear: ids, times, the collection days, the pseudonym; the borrower id once more under banking's key.
    expect(Object.keys(stored.data).sort()).toEqual(['account_id', 'borrower_ref', 'customer_id', 'expected_collection_days', 'key_id', 'loan_id', 'pseudonym', 'registered_at', 'sealed'].sort());
    expect(JSON.stringify(stored.data)).not.toMatch(/5\.612345|0\.198765|radius_m/);
    const recorded: RecordedEvent = { id: 'e1', streamName: stream, type: stored.type, data: JSON.parse(JSON.stringify(stored.data)), metadata: {}, revision: 0n, position: 1n, createdAt: new Date() };
    const opened = await sealing.open(recorded);
    expect(opened).toEqual(data);
    expect(evolveLoan(initialLoanState, { type: 'CollectionLoanRegistered', data: opened } as LoanEvent)).toMatchObject({ status: 'registered', terms: { zone: terms.zone } });
    // Bound to its stream: the sealed zone moved to another loan does not open.
    expect(await sealing.open({ ...recorded, streamName: loanStream('acct_s', 'loan-10') })).toBeUndefined();
    expect(sealing.borrowerOf('acct_s', String(stored.data.borrower_ref))).toBe('cust-sealed-7');
    expect(sealing.borrowerOf('acct_other', String(stored.data.borrower_ref))).toBeUndefined();

    await vault.destroy(customerDataKeySubject('acct_s', 'cust-sealed-7'));
    expect(await sealing.open(recorded)).toBeUndefined();
    // Stored before sealing: read as it is.
    expect(await sealing.open({ ...recorded, data })).toBe(data);
    await vault.close();
  });
});
