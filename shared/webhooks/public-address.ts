import ipaddr from 'ipaddr.js';

/**
 * Which addresses a webhook may reach from AWS: ordinary global unicast only. ipaddr.js (the
 * address library of express's proxy-addr) names every range of IANA's IPv4 and IPv6
 * Special-Purpose Address Registries, multicast and site-local besides; an address in any of
 * them is refused, the few globally reachable ones too (AS112, AMT, PCP and TURN anycast,
 * ORCHIDv2, DETs: services and identifiers where no webhook receiver lives). IPv6 is global
 * unicast only inside 2000::/3 (IANA's IPv6 Address Space: the rest is reserved), which also
 * takes the deprecated IPv4-compatible `::/96` and the dummy prefix `100:0:0:1::/64`.
 * An IPv4-mapped address (`::ffff:a.b.c.d`) is the IPv4 address it maps; every other form that
 * embeds an IPv4 address (SIIT `::ffff:0:a.b.c.d`, NAT64 `64:ff9b::/96` and `64:ff9b:1::/48`,
 * 6to4, Teredo) is refused whatever it embeds: it reaches the address through a translator or
 * relay, none of which a webhook needs.
 */
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/** An IPv4 or IPv6 address, as opposed to a host name (whose resolved addresses are checked). */
export const isIpAddress = (value: string): boolean => ipaddr.isValid(value);

/**
 * The special-purpose range `address` lies in (ipaddr.js's name, e.g. `linkLocal`, `teredo`),
 * or undefined when it is a public address or not an IP address at all.
 */
export function nonPublicRange(address: string): string | undefined {
  if (!isIpAddress(address)) return undefined;
  const parsed = ipaddr.process(address);
  const range: string = parsed.range();
  if (range !== 'unicast') return range;
  if (parsed.kind() === 'ipv6' && !parsed.match(GLOBAL_UNICAST_V6)) return 'reserved';
  return undefined;
}
