import { ReporterGroups } from './reporters.js';

describe('ReporterGroups', () => {
  it('counts a client once with and without a key, and joins reporters that share an IP or an account', () => {
    const groups = new ReporterGroups();
    expect(groups.add(['ip:a'])).toBe(true);
    expect(groups.add(['ip:a', 'account:x'])).toBe(false);
    expect(groups.count).toBe(1);
    expect(groups.add(['ip:b', 'account:x'])).toBe(false);
    expect(groups.add(['ip:b'])).toBe(false);
    expect(groups.count).toBe(1);
    expect(groups.add(['ip:c'])).toBe(true);
    expect(groups.count).toBe(2);
  });

  it('merges two reporters when a report links them, whatever the order', () => {
    const groups = new ReporterGroups();
    groups.add(['ip:a']);
    groups.add(['ip:b', 'account:x']);
    expect(groups.count).toBe(2);
    groups.add(['ip:a', 'account:x']);
    expect(groups.count).toBe(1);
    expect(groups.knows(['account:x'])).toBe(true);
    expect(groups.knows(['ip:z'])).toBe(false);
  });

  it('names the group an identity belongs to; the group of a linking report\'s first identity keeps its name', () => {
    const groups = new ReporterGroups();
    groups.add(['ip:a']);
    groups.add(['ip:b', 'account:x']);
    expect(groups.groupOf('ip:z')).toBeUndefined();
    expect(groups.groupOf('account:x')).toBe(groups.groupOf('ip:b'));
    expect(groups.groupOf('ip:a')).not.toBe(groups.groupOf('ip:b'));
    const named = groups.groupOf('ip:a');
    groups.add(['ip:a', 'account:x']);
    expect(['ip:a', 'ip:b', 'account:x'].map((identity) => groups.groupOf(identity))).toEqual([named, named, named]);
  });
});
