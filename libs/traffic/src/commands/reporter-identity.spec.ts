import { ReporterGroups, ReporterHash } from '../../../platform/src/index.js';
import { reporterIdentity } from './reporter-identity.js';

describe('reporterIdentity: one rule for hazard reports and arrivals (docs/adr/0034, 0056)', () => {
  const hash = ReporterHash.fromKey(new Uint8Array(32).fill(7), 'traffic-reporter');

  it('names the address and the account by keyed hashes, never the address itself', () => {
    const identity = reporterIdentity(hash, { accountId: 'acc_1', keyPrefix: 'lk_abc', ip: '192.0.2.7' });
    expect(identity).toEqual({ reporter: hash.of('account:acc_1'), reporter_ids: [hash.of('192.0.2.7'), hash.of('account:acc_1')] });
    expect(JSON.stringify(identity)).not.toContain('192.0.2.7');
    // A key without an account is its own identity; no key: the address alone.
    expect(reporterIdentity(hash, { accountId: null, keyPrefix: 'lk_abc', ip: '192.0.2.7' }).reporter_ids).toEqual([hash.of('192.0.2.7'), hash.of('key:lk_abc')]);
    expect(reporterIdentity(hash, { accountId: null, ip: '192.0.2.7' })).toEqual({ reporter: hash.of('192.0.2.7'), reporter_ids: [hash.of('192.0.2.7')] });
  });

  it('makes three accounts behind one address, or one account on three addresses, one reporter', () => {
    const sharedAddress = new ReporterGroups();
    for (const accountId of ['a', 'b', 'c']) sharedAddress.add(reporterIdentity(hash, { accountId, ip: '192.0.2.7' }).reporter_ids);
    expect(sharedAddress.count).toBe(1);
    const roaming = new ReporterGroups();
    for (const ip of ['192.0.2.7', '198.51.100.1', '203.0.113.9']) roaming.add(reporterIdentity(hash, { accountId: 'a', ip }).reporter_ids);
    expect(roaming.count).toBe(1);
    const distinct = new ReporterGroups();
    for (const [accountId, ip] of [['a', '192.0.2.7'], ['b', '198.51.100.1'], ['c', '203.0.113.9']]) distinct.add(reporterIdentity(hash, { accountId, ip }).reporter_ids);
    expect(distinct.count).toBe(3);
  });
});
