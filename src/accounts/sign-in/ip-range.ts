import { isIPv4, isIPv6 } from 'node:net';

/**
 * An address coarsened to its network, IPv4 to its /24 and IPv6 to its /48 (`203.0.113.0/24`,
 * `2001:db8:1::/48`): enough to tell "home" from "abroad" in the sessions list, not to name a
 * household. An IPv4-mapped IPv6 address counts as IPv4. Unparseable input gives null.
 */
export function ipRangeOf(ip: string | undefined | null): string | null {
  if (!ip) return null;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  const address = mapped ? mapped[1]! : ip.replace(/%.*$/, '');
  if (isIPv4(address)) return `${address.split('.').slice(0, 3).join('.')}.0/24`;
  if (!isIPv6(address)) return null;
  const groups = expandIpv6(address).slice(0, 3).map((group) => parseInt(group, 16).toString(16));
  // RFC 5952 text: the zero groups after the prefix (and its own trailing zero groups) fold into `::`.
  while (groups.at(-1) === '0') groups.pop();
  return `${groups.join(':')}::/48`;
}

/** The eight 16-bit groups of an IPv6 address (`::` filled, a trailing dotted IPv4 part converted). */
function expandIpv6(address: string): string[] {
  let text = address;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number];
    text = text.slice(0, -dotted[1]!.length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const fill = tail === undefined ? [] : Array(8 - left.length - right.length).fill('0');
  return [...left, ...fill, ...right];
}
