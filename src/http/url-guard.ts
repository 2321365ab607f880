import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * SSRF guard: which addresses a user-given URL (a webhook, a push URL, a push service) may reach. Only public unicast addresses pass: loopback,
 * private, CGNAT, link-local, multicast, unspecified, documentation, benchmarking and other special
 * ranges are refused, in IPv4 and IPv6 alike, including IPv4 carried inside IPv6 (mapped, NAT64, 6to4).
 */
const blockedV4 = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // CGNAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  blockedV4.addSubnet(net, prefix, 'ipv4');
}

/** IPv6 global unicast is 2000::/3; inside it these ranges are special. */
const globalV6 = new BlockList();
globalV6.addSubnet('2000::', 3, 'ipv6');
const blockedV6 = new BlockList();
for (const [net, prefix] of [
  ['2001::', 23], // IETF protocol assignments (Teredo, benchmarking, ORCHID)
  ['2001:db8::', 32], // documentation
  ['3fff::', 20], // documentation
] as const) {
  blockedV6.addSubnet(net, prefix, 'ipv6');
}

/** The 8 hextets of an IPv6 address (with an optional dotted IPv4 tail), or null. */
function hextets(address: string): number[] | null {
  let text = address.toLowerCase().split('%')[0]!;
  const v4Tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4Tail) {
    const parts = v4Tail[1]!.split('.').map(Number);
    if (parts.some((p) => p > 255)) return null;
    text = text.slice(0, -v4Tail[1]!.length) + `${((parts[0]! << 8) | parts[1]!).toString(16)}:${((parts[2]! << 8) | parts[3]!).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const all = [...head, ...Array(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  const values = all.map((h) => (/^[0-9a-f]{1,4}$/.test(h) ? parseInt(h, 16) : NaN));
  return values.some(Number.isNaN) ? null : values;
}

function v4From(high: number, low: number): string {
  return `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
}

/** The IPv4 address an IPv6 address carries (mapped, IPv4-compatible, NAT64, 6to4), if any. */
function embeddedV4(h: number[]): string | null {
  const zeros = (from: number, to: number) => h.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && h[5] === 0xffff) return v4From(h[6]!, h[7]!); // ::ffff:a.b.c.d
  if (zeros(0, 6) && (h[6]! | h[7]!) !== 0 && !(h[6] === 0 && h[7] === 1)) return v4From(h[6]!, h[7]!); // ::a.b.c.d
  if (h[0] === 0x64 && h[1] === 0xff9b && zeros(2, 6)) return v4From(h[6]!, h[7]!); // 64:ff9b::/96
  if (h[0] === 0x2002) return v4From(h[1]!, h[2]!); // 6to4
  return null;
}

/** True when the address is a public unicast address a user-given URL may reach. */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !blockedV4.check(address, 'ipv4');
  if (family !== 6) return false;
  const h = hextets(address);
  if (!h) return false;
  const v4 = embeddedV4(h);
  if (v4) return isPublicAddress(v4);
  const canonical = h.map((x) => x.toString(16)).join(':');
  if (h[0] === 0x64 && h[1] === 0xff9b) return false; // local-use NAT64 and other forms
  return globalV6.check(canonical, 'ipv6') && !blockedV6.check(canonical, 'ipv6');
}

/** The host of a URL as an address or a name: `[::1]` → `::1`. */
export function hostOf(url: URL): string {
  const host = url.hostname;
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

export class UnsafeAddressError extends Error {
  constructor(readonly host: string, readonly address?: string) {
    super(
      address && address !== host
        ? `${host} resolves to ${address}, which is not a public address`
        : `${host} is not a public address`,
    );
  }
}

export class UnresolvableHostError extends Error {
  constructor(readonly host: string) {
    super(`${host} could not be resolved`);
  }
}

export type Resolver = (host: string) => Promise<{ address: string; family: number }[]>;

export const systemResolver: Resolver = (host) => dnsLookup(host, { all: true, verbatim: true });

/**
 * Every address the host is or resolves to must be public (a name with one private address among
 * public ones is refused too). Returns the addresses, checked, in resolver order.
 */
export async function checkHost(host: string, resolve: Resolver = systemResolver): Promise<{ address: string; family: number }[]> {
  const family = isIP(host);
  if (family) {
    if (!isPublicAddress(host)) throw new UnsafeAddressError(host);
    return [{ address: host, family }];
  }
  let addresses: { address: string; family: number }[];
  try {
    addresses = await resolve(host);
  } catch {
    throw new UnresolvableHostError(host);
  }
  if (!addresses.length) throw new UnresolvableHostError(host);
  const bad = addresses.find((a) => !isPublicAddress(a.address));
  if (bad) throw new UnsafeAddressError(host, bad.address);
  return addresses;
}

/**
 * A `lookup` for http(s).request that resolves, checks, and hands the socket exactly the addresses it
 * checked: the connection is pinned to a vetted address, so DNS cannot change between check and connect.
 */
export function guardedLookup(resolve: Resolver = systemResolver): LookupFunction {
  return ((hostname: string, options: { all?: boolean; family?: number | string }, callback: (...args: unknown[]) => void) => {
    checkHost(hostname, resolve).then(
      (addresses) => {
        const wanted = options?.family === 4 || options?.family === 'IPv4' ? 4 : options?.family === 6 || options?.family === 'IPv6' ? 6 : 0;
        const usable = wanted ? addresses.filter((a) => a.family === wanted) : addresses;
        if (!usable.length) return callback(Object.assign(new UnresolvableHostError(hostname), { code: 'ENOTFOUND' }));
        if (options?.all) return callback(null, usable);
        return callback(null, usable[0]!.address, usable[0]!.family);
      },
      (error: Error) => callback(Object.assign(error, { code: error instanceof UnsafeAddressError ? 'EUNSAFEADDRESS' : 'ENOTFOUND' })),
    );
  }) as unknown as LookupFunction;
}

/** Checks a user-given URL's host against the guard (at save time); answers the refusal's text, or null. */
export async function refusedHost(url: URL, resolve: Resolver = systemResolver): Promise<string | null> {
  try {
    await checkHost(hostOf(url), resolve);
    return null;
  } catch (error) {
    if (error instanceof UnsafeAddressError || error instanceof UnresolvableHostError) return error.message;
    throw error;
  }
}
