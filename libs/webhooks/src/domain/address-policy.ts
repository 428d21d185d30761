import ipaddr from 'ipaddr.js';

/**
 * Where a webhook may point when private addresses are not allowed
 * (decisions.md, WEBHOOK_ALLOW_PRIVATE_URLS): only global unicast. Everything
 * ipaddr.js places in a special-purpose range is refused, so the list below
 * names the reasons a caller sees, and anything else special (documentation,
 * benchmarking, reserved space) is refused as `special_purpose`.
 *
 * IPv6 is allowed only inside 2000::/3, the global unicast space, so any
 * encoding outside it (IPv4-compatible `::a.b.c.d`, `::ffff:0:a.b.c.d`, odd
 * spellings in ::/8) is refused whatever ipaddr.js calls it (issue 31, item 5:
 * it called `::a9fe:a9fe` unicast). Forms that carry an IPv4 address — mapped,
 * compatible, SIIT, NAT64 64:ff9b::/96, 6to4 and Teredo — are refused in any
 * case except mapped; the reason given is that of the IPv4 address inside when
 * that one is refused (so `[64:ff9b::a9fe:a9fe]` says link-local), else
 * `special_purpose`. An IPv4-mapped address (`::ffff:127.0.0.1`) is judged as
 * the IPv4 address it carries, which is where a dual-stack socket connects.
 * IPv4 in decimal, octal or hex (`2130706433`, `0177.1`, `0x7f.1`) is
 * normalised by URL parsing, and ipaddr.js reads those spellings too.
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

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');
const NAT64_WELL_KNOWN = ipaddr.parseCIDR('64:ff9b::/96');

/** undefined when the address may be connected to; otherwise why not. */
export function addressRefusal(address: string): AddressRefusal | undefined {
  if (!ipaddr.isValid(address)) return 'not_an_ip_address';
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return ipv4Refusal(parsed as ipaddr.IPv4);
  const v6 = parsed as ipaddr.IPv6;
  const range = v6.range();
  const embedded = embeddedIPv4(v6, range);
  if (range === 'ipv4Mapped' && embedded) return ipv4Refusal(embedded);
  if (embedded) return ipv4Refusal(embedded) ?? 'special_purpose';
  if (REASONS[range]) return REASONS[range];
  if (range === 'unicast' && v6.match(GLOBAL_UNICAST_V6)) return undefined;
  return 'special_purpose';
}

function ipv4Refusal(address: ipaddr.IPv4): AddressRefusal | undefined {
  const range = address.range();
  if (range === 'unicast') return undefined;
  return REASONS[range] ?? 'special_purpose';
}

/** The IPv4 address an IPv6 transition form carries, if it is one. */
function embeddedIPv4(address: ipaddr.IPv6, range: string): ipaddr.IPv4 | undefined {
  const bytes = address.toByteArray();
  const v4 = (from: number) => new ipaddr.IPv4(bytes.slice(from, from + 4));
  const zeros = (from: number, to: number) => bytes.slice(from, to).every((b) => b === 0);
  if (range === 'ipv4Mapped') return v4(12);
  // IPv4-compatible ::a.b.c.d (deprecated); :: and ::1 keep their own meaning.
  if (zeros(0, 12) && !(zeros(12, 15) && bytes[15] <= 1)) return v4(12);
  if (range === 'rfc6145') return v4(12); // ::ffff:0:a.b.c.d (SIIT)
  if (address.match(NAT64_WELL_KNOWN)) return v4(12);
  if (range === '6to4') return v4(2);
  // Teredo: the client's IPv4 address is the last 32 bits, inverted.
  if (range === 'teredo') return new ipaddr.IPv4(bytes.slice(12, 16).map((b) => b ^ 0xff));
  return undefined;
}
