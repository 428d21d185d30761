import ipaddr from 'ipaddr.js';
import { InvalidParamError } from '../../../platform/src/errors.js';

/**
 * The IP allowlist an operator may put on an account's banking endpoints
 * (interface.md, "Authentication" rule 8; decisions.md, PUT
 * /v2/admin/accounts/{accountId}/ip-allowlist).
 *
 * Entries are exact addresses or CIDR ranges, IPv4 or IPv6. Parsing is strict,
 * because a lenient reading of an allowlist opens doors nobody meant to open:
 * - IPv4 only in dotted-decimal with four parts and no leading zeros
 *   (`010.0.0.1` is octal to some parsers and decimal to others; `10.1` and
 *   `0x0a.0.0.1` are refused rather than guessed);
 * - a range must be written as its network address (`10.1.2.3/8` is refused:
 *   it may be a typo for `/24`, or mean the single host);
 * - IPv6 zone ids (`fe80::1%eth0`) are refused: they name an interface of the
 *   machine that wrote them, not a host.
 *
 * IPv4-mapped IPv6 addresses (`::ffff:10.1.2.3`, what a dual-stack socket
 * reports for an IPv4 peer) are IPv4 addresses here, in entries and client
 * addresses alike: `::ffff:10.0.0.0/104` is stored as `10.0.0.0/8`, and the
 * client `::ffff:10.1.2.3` matches `10.0.0.0/8`. An IPv6 range therefore
 * matches IPv6 clients only: `::/0` lets in every IPv6 client but no IPv4 one
 * (that is `0.0.0.0/0`).
 *
 * An empty allowlist allows nobody. "An empty list removes it" (decisions.md)
 * is for the caller to honour by not enforcing an allowlist at all.
 */
export class IpAllowlist {
  private constructor(private readonly ranges: readonly Range[]) {}

  /** Parses operator input; throws {@link InvalidIpAllowlistError} naming the first bad entry. */
  static parse(entries: unknown): IpAllowlist {
    if (!Array.isArray(entries)) {
      throw new InvalidIpAllowlistError('entries must be an array of IP addresses or CIDR ranges', 'entries');
    }
    if (entries.length > MAX_ALLOWLIST_ENTRIES) {
      throw new InvalidIpAllowlistError(`an allowlist holds at most ${MAX_ALLOWLIST_ENTRIES} entries`, 'entries');
    }
    const ranges = new Map<string, Range>();
    entries.forEach((entry, index) => {
      const range = parseEntry(entry, `entries[${index}]`);
      // Two spellings of one range (`10.0.0.1` and `::ffff:10.0.0.1`) are kept once.
      if (!ranges.has(range.text)) ranges.set(range.text, range);
    });
    return new IpAllowlist([...ranges.values()]);
  }

  /** The entries in normal form: `203.0.113.7`, `10.0.0.0/8`, `2001:db8::/32`; no duplicates. */
  get entries(): readonly string[] {
    return this.ranges.map((range) => range.text);
  }

  get isEmpty(): boolean {
    return this.ranges.length === 0;
  }

  /**
   * Whether a client address is inside the allowlist. An address that does not
   * parse strictly (including one with a zone id) is not allowed: this is an
   * access check and it fails closed.
   */
  allows(clientIp: string): boolean {
    if (typeof clientIp !== 'string' || clientIp.length > MAX_ENTRY_LENGTH) return false;
    const parsed = parseAddress(clientIp);
    if (typeof parsed === 'string') return false;
    const address = unmapped(parsed);
    return this.ranges.some((range) => range.network.kind() === address.kind() && address.match(range.network, range.prefix));
  }
}

export const MAX_ALLOWLIST_ENTRIES = 1000;

/** A bad allowlist: a 400 `INVALID_PARAM` whose field names the entry (`entries[2]`). */
export class InvalidIpAllowlistError extends InvalidParamError {
  constructor(message: string, field: string) {
    super(message, field);
  }
}

type Address = ipaddr.IPv4 | ipaddr.IPv6;

interface Range {
  network: Address;
  prefix: number;
  text: string;
}

/** The longest legal entry is a full IPv6 address with an embedded IPv4 tail and a prefix (~50 characters). */
const MAX_ENTRY_LENGTH = 100;

function parseEntry(entry: unknown, field: string): Range {
  if (typeof entry !== 'string') throw new InvalidIpAllowlistError('each entry must be a string', field);
  const text = entry.trim();
  if (text === '') throw new InvalidIpAllowlistError('an entry is empty', field);
  if (text.length > MAX_ENTRY_LENGTH) throw new InvalidIpAllowlistError('an entry is too long to be an IP address or CIDR range', field);

  const slash = text.indexOf('/');
  const addressText = slash === -1 ? text : text.slice(0, slash);
  const parsed = parseAddress(addressText);
  if (typeof parsed === 'string') throw new InvalidIpAllowlistError(`"${text}" is not an IP address or CIDR range: ${parsed}`, field);

  const bits = parsed.kind() === 'ipv4' ? 32 : 128;
  let prefix = bits;
  if (slash !== -1) {
    const prefixText = text.slice(slash + 1);
    prefix = /^(0|[1-9][0-9]{0,2})$/.test(prefixText) ? Number(prefixText) : NaN;
    if (!(prefix <= bits)) {
      throw new InvalidIpAllowlistError(`"${text}" has an invalid prefix length: use 0 to ${bits} for ${parsed.kind() === 'ipv4' ? 'IPv4' : 'IPv6'}`, field);
    }
    const network = networkOf(parsed, prefix);
    if (format(network) !== format(parsed)) {
      throw new InvalidIpAllowlistError(`"${text}" has host bits set: write the range as ${format(network)}/${prefix}`, field);
    }
  }

  let network: Address = parsed;
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    // A valid network with a prefix below 96 cannot have the ::ffff: bits set, so the prefix is >= 96 here.
    network = (parsed as ipaddr.IPv6).toIPv4Address();
    prefix -= 96;
  }
  const fullLength = network.kind() === 'ipv4' ? 32 : 128;
  return { network, prefix, text: prefix === fullLength ? format(network) : `${format(network)}/${prefix}` };
}

/**
 * Strict address parser; answers the parsed address or why it was refused.
 * ipaddr.js alone is too lenient for an allowlist (it reads `10.1`, `0x0a.0.0.1`
 * and `010.0.0.1` as IPv4, and reads the IPv4-compatible `::10.1.2.3` as the
 * mapped `::ffff:10.1.2.3`), so dotted parts are checked and converted here.
 */
function parseAddress(text: string): Address | string {
  if (text.includes('%')) return 'zone ids (%…) are not allowed';
  if (!text.includes(':')) {
    if (!ipaddr.IPv4.isValidFourPartDecimal(text)) return 'IPv4 addresses are four decimal numbers 0-255 without leading zeros';
    return ipaddr.IPv4.parse(text);
  }
  let hex = text;
  const embedded = /^(.*:)([^:]*\.[^:]*)$/.exec(text);
  if (embedded) {
    const [, head, dotted] = embedded;
    if (!ipaddr.IPv4.isValidFourPartDecimal(dotted)) return 'the embedded IPv4 part is not four decimal numbers 0-255';
    const [a, b, c, d] = ipaddr.IPv4.parse(dotted).octets;
    hex = `${head}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  if (!ipaddr.IPv6.isValid(hex)) return 'not a valid IPv6 address';
  return ipaddr.IPv6.parse(hex);
}

function unmapped(address: Address): Address {
  return address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()
    ? (address as ipaddr.IPv6).toIPv4Address()
    : address;
}

function networkOf(address: Address, prefix: number): Address {
  const bytes = address.toByteArray().map((byte, index) => {
    const kept = Math.max(0, Math.min(8, prefix - index * 8));
    return byte & ((0xff << (8 - kept)) & 0xff);
  });
  return ipaddr.fromByteArray(bytes);
}

function format(address: Address): string {
  return address.kind() === 'ipv4' ? address.toString() : (address as ipaddr.IPv6).toRFC5952String();
}
