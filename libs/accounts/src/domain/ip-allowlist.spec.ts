import { describe, expect, it } from '@jest/globals';
import { InvalidParamError } from '../../../platform/src/errors.js';
import { InvalidIpAllowlistError, IpAllowlist, MAX_ALLOWLIST_ENTRIES } from './ip-allowlist.js';

function refusal(entries: unknown): InvalidIpAllowlistError {
  try {
    IpAllowlist.parse(entries);
  } catch (error) {
    if (error instanceof InvalidIpAllowlistError) return error;
    throw error;
  }
  throw new Error(`expected ${JSON.stringify(entries)} to be refused`);
}

describe('IpAllowlist.parse', () => {
  it('accepts the example from decisions.md and keeps its entries in normal form', () => {
    const allowlist = IpAllowlist.parse(['203.0.113.7', '10.0.0.0/8', '2001:db8::/32']);
    expect(allowlist.entries).toEqual(['203.0.113.7', '10.0.0.0/8', '2001:db8::/32']);
    expect(allowlist.isEmpty).toBe(false);
  });

  it('normalises spellings: IPv6 case and zeros, full-length prefixes, mapped IPv4, surrounding spaces', () => {
    const allowlist = IpAllowlist.parse([
      '2001:DB8:0:0:0:0:0:1',
      '198.51.100.9/32',
      '2001:db8::2/128',
      '::ffff:192.0.2.1',
      '::ffff:c000:202',
      '::ffff:10.0.0.0/104',
      ' 192.0.2.99 ',
    ]);
    expect(allowlist.entries).toEqual([
      '2001:db8::1',
      '198.51.100.9',
      '2001:db8::2',
      '192.0.2.1',
      '192.0.2.2',
      '10.0.0.0/8',
      '192.0.2.99',
    ]);
  });

  it('keeps one copy of entries that normalise to the same range', () => {
    expect(IpAllowlist.parse(['10.0.0.1', '::ffff:10.0.0.1', '10.0.0.1/32']).entries).toEqual(['10.0.0.1']);
  });

  it('accepts /0 ranges for either family', () => {
    expect(IpAllowlist.parse(['0.0.0.0/0', '::/0']).entries).toEqual(['0.0.0.0/0', '::/0']);
  });

  it('accepts an empty list, which allows nobody', () => {
    const allowlist = IpAllowlist.parse([]);
    expect(allowlist.isEmpty).toBe(true);
    expect(allowlist.allows('203.0.113.7')).toBe(false);
  });

  it.each([
    ['garbage', 'not-an-ip'],
    ['an empty string', ''],
    ['only spaces', '   '],
    ['an octet over 255', '256.1.1.1'],
    ['a short IPv4 form', '10.1'],
    ['a hex IPv4 octet', '0x0a.0.0.1'],
    ['a leading zero (octal to some parsers)', '010.0.0.1'],
    ['a 32-bit integer', '4294967295'],
    ['an IPv4 prefix over 32', '10.0.0.0/33'],
    ['an IPv6 prefix over 128', '2001:db8::/129'],
    ['a negative prefix', '10.0.0.0/-1'],
    ['a prefix with a leading zero', '10.0.0.0/08'],
    ['an empty prefix', '10.0.0.0/'],
    ['two prefixes', '10.0.0.0/8/8'],
    ['host bits in an IPv4 range', '10.1.2.3/8'],
    ['host bits in an IPv6 range', '2001:db8::1/32'],
    ['a zone id', 'fe80::1%eth0'],
    ['a zone id on a range', 'fe80::%eth0/64'],
    ['two double colons', '2001::db8::1'],
    ['nine IPv6 groups', '1:2:3:4:5:6:7:8:9'],
    ['a port', '203.0.113.7:443'],
    ['a bracketed IPv6 address', '[2001:db8::1]'],
    ['a short embedded IPv4 part', '::ffff:1.2.3'],
    ['an embedded IPv4 part with a leading zero', '::ffff:010.1.2.3'],
    ['a hostname', 'example.com'],
    ['an overlong string', '1'.repeat(500)],
  ])('refuses %s, naming the entry by index', (_, bad) => {
    const error = refusal(['203.0.113.7', '10.0.0.0/8', bad]);
    expect(error).toBeInstanceOf(InvalidParamError);
    expect(error.status).toBe(400);
    expect(error.code).toBe('INVALID_PARAM');
    expect(error.field).toBe('entries[2]');
  });

  it('says what the network address is when host bits are set', () => {
    expect(refusal(['10.1.2.3/8']).message).toContain('10.0.0.0/8');
    expect(refusal(['2001:db8::1/32']).message).toContain('2001:db8::/32');
  });

  it('says why a zone id is refused', () => {
    expect(refusal(['fe80::1%eth0']).message).toMatch(/zone id/);
  });

  it.each([[42], [null], [{ ip: '10.0.0.1' }], [['10.0.0.1']]])('refuses a non-string entry %j', (bad) => {
    expect(refusal(['10.0.0.1', bad]).field).toBe('entries[1]');
  });

  it.each([['10.0.0.0/8'], [null], [{ entries: [] }], [undefined]])('refuses %j, which is not an array, naming "entries"', (bad) => {
    expect(refusal(bad).field).toBe('entries');
  });

  it(`accepts ${MAX_ALLOWLIST_ENTRIES} entries and refuses one more`, () => {
    const entries = Array.from({ length: MAX_ALLOWLIST_ENTRIES }, (_, i) => `10.${i >> 8}.${i & 255}.1`);
    expect(IpAllowlist.parse(entries).entries).toHaveLength(MAX_ALLOWLIST_ENTRIES);
    const error = refusal([...entries, '192.0.2.1']);
    expect(error.field).toBe('entries');
    expect(error.message).toContain(String(MAX_ALLOWLIST_ENTRIES));
  });
});

describe('IpAllowlist.allows', () => {
  const allowlist = IpAllowlist.parse(['203.0.113.7', '10.0.0.0/8', '2001:db8::/32']);

  it.each([
    ['the exact IPv4 address', '203.0.113.7'],
    ['the first address of an IPv4 range', '10.0.0.0'],
    ['the last address of an IPv4 range', '10.255.255.255'],
    ['an IPv6 address inside the range', '2001:db8:ffff::1'],
    ['an IPv6 address in another spelling', '2001:DB8:0:0:0:0:0:1'],
    ['the mapped form of an allowed IPv4 address', '::ffff:203.0.113.7'],
    ['the mapped form inside an IPv4 range', '::ffff:10.1.2.3'],
    ['the hex mapped form inside an IPv4 range', '::ffff:a01:203'],
  ])('allows %s', (_, ip) => {
    expect(allowlist.allows(ip)).toBe(true);
  });

  it.each([
    ['the neighbour of an exact address', '203.0.113.8'],
    ['the address just past an IPv4 range', '11.0.0.0'],
    ['an IPv6 address just outside the range', '2001:db9::'],
    ['the IPv4-compatible (not mapped) form', '::10.1.2.3'],
    ['a mapped address outside the list', '::ffff:192.0.2.1'],
    ['a zone id on an otherwise allowed address', '2001:db8::1%eth0'],
    ['a short IPv4 form that a lenient parser would read as 10.0.0.1', '10.1'],
    ['a hex IPv4 form', '0x0a.0.0.1'],
    ['garbage', 'not-an-ip'],
    ['an empty string', ''],
    ['a padded address', ' 203.0.113.7'],
  ])('refuses %s', (_, ip) => {
    expect(allowlist.allows(ip)).toBe(false);
  });

  it('matches an entry written in mapped form against plain IPv4 clients', () => {
    const mapped = IpAllowlist.parse(['::ffff:10.0.0.0/104', '::ffff:192.0.2.1']);
    expect(mapped.allows('10.20.30.40')).toBe(true);
    expect(mapped.allows('192.0.2.1')).toBe(true);
    expect(mapped.allows('192.0.2.2')).toBe(false);
  });

  it('treats /32 and /128 as single hosts', () => {
    const hosts = IpAllowlist.parse(['198.51.100.9/32', '2001:db8::2/128']);
    expect(hosts.allows('198.51.100.9')).toBe(true);
    expect(hosts.allows('198.51.100.10')).toBe(false);
    expect(hosts.allows('2001:db8::2')).toBe(true);
    expect(hosts.allows('2001:db8::3')).toBe(false);
  });

  it('lets 0.0.0.0/0 admit every IPv4 client (mapped ones too) but no IPv6 client', () => {
    const everyIpv4 = IpAllowlist.parse(['0.0.0.0/0']);
    expect(everyIpv4.allows('198.51.100.9')).toBe(true);
    expect(everyIpv4.allows('::ffff:198.51.100.9')).toBe(true);
    expect(everyIpv4.allows('2001:db8::1')).toBe(false);
  });

  it('lets ::/0 admit every IPv6 client but no IPv4 client, mapped or not', () => {
    const everyIpv6 = IpAllowlist.parse(['::/0']);
    expect(everyIpv6.allows('2001:db8::1')).toBe(true);
    expect(everyIpv6.allows('::1')).toBe(true);
    expect(everyIpv6.allows('198.51.100.9')).toBe(false);
    expect(everyIpv6.allows('::ffff:198.51.100.9')).toBe(false);
  });

  it('matches a mapped IPv6 loopback client against 127.0.0.0/8', () => {
    expect(IpAllowlist.parse(['127.0.0.0/8']).allows('::ffff:127.0.0.1')).toBe(true);
  });

  it('fails closed for a non-string client address', () => {
    expect(allowlist.allows(undefined as unknown as string)).toBe(false);
  });
});
