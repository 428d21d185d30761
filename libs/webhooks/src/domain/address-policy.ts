import ipaddr from 'ipaddr.js';

/**
 * Where a webhook may point when private addresses are not allowed
 * (decisions.md, WEBHOOK_ALLOW_PRIVATE_URLS): only global unicast. Everything
 * ipaddr.js places in a special-purpose range is refused, so the list below
 * names the reasons a caller sees, and anything else special (documentation,
 * benchmarking, 6to4, Teredo, NAT64 prefixes that embed an IPv4 address,
 * reserved space) is refused as `special_purpose`. An IPv4-mapped IPv6
 * address (`::ffff:127.0.0.1`) is judged as the IPv4 address it carries,
 * which is where a dual-stack socket connects.
 */
export type AddressRefusal =
  | 'loopback'
  | 'private'
  | 'link_local'
  | 'unique_local'
  | 'carrier_grade_nat'
  | 'multicast'
  | 'unspecified'
  | 'broadcast'
  | 'special_purpose'
  | 'not_an_ip_address';

const REASONS: Record<string, AddressRefusal> = {
  loopback: 'loopback',
  private: 'private',
  linkLocal: 'link_local',
  uniqueLocal: 'unique_local',
  carrierGradeNat: 'carrier_grade_nat',
  multicast: 'multicast',
  unspecified: 'unspecified',
  broadcast: 'broadcast',
};

/** undefined when the address may be connected to; otherwise why not. */
export function addressRefusal(address: string): AddressRefusal | undefined {
  if (!ipaddr.isValid(address)) return 'not_an_ip_address';
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).range() === 'ipv4Mapped') {
    // Covers ::ffff:a.b.c.d and the deprecated IPv4-compatible ::a.b.c.d alike.
    const bytes = (parsed as ipaddr.IPv6).toByteArray().slice(12);
    parsed = new ipaddr.IPv4(bytes);
  }
  const range = parsed.range();
  if (range === 'unicast') return undefined;
  return REASONS[range] ?? 'special_purpose';
}
