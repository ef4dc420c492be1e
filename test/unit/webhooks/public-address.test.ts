import { nonPublicRange } from '../../../shared/webhooks/public-address';

/**
 * Every range of IANA's IPv4 and IPv6 Special-Purpose Address Registries, with the other
 * non-public space (multicast, site-local, the deprecated IPv4-compatible form, IPv6 outside
 * 2000::/3), checked at its first and last address: a webhook may reach none of them from AWS.
 * The registries' few globally reachable entries are anycast services and identifiers (AS112,
 * AMT, PCP, TURN, ORCHIDv2, DETs) where no webhook receiver lives: they are refused too.
 */
const IPV4_SPECIAL: [range: string, first: string, last: string][] = [
  ['0.0.0.0/8 this network', '0.0.0.0', '0.255.255.255'],
  ['10.0.0.0/8 private-use', '10.0.0.0', '10.255.255.255'],
  ['100.64.0.0/10 shared address space', '100.64.0.0', '100.127.255.255'],
  ['127.0.0.0/8 loopback', '127.0.0.0', '127.255.255.255'],
  ['169.254.0.0/16 link local', '169.254.0.0', '169.254.255.255'],
  ['172.16.0.0/12 private-use', '172.16.0.0', '172.31.255.255'],
  ['192.0.0.0/24 IETF protocol assignments (service continuity, dummy, PCP, TURN, NAT64 discovery)', '192.0.0.0', '192.0.0.255'],
  ['192.0.2.0/24 documentation TEST-NET-1', '192.0.2.0', '192.0.2.255'],
  ['192.31.196.0/24 AS112-v4', '192.31.196.0', '192.31.196.255'],
  ['192.52.193.0/24 AMT', '192.52.193.0', '192.52.193.255'],
  ['192.88.99.0/24 deprecated 6to4 relay anycast', '192.88.99.0', '192.88.99.255'],
  ['192.168.0.0/16 private-use', '192.168.0.0', '192.168.255.255'],
  ['192.175.48.0/24 direct delegation AS112', '192.175.48.0', '192.175.48.255'],
  ['198.18.0.0/15 benchmarking', '198.18.0.0', '198.19.255.255'],
  ['198.51.100.0/24 documentation TEST-NET-2', '198.51.100.0', '198.51.100.255'],
  ['203.0.113.0/24 documentation TEST-NET-3', '203.0.113.0', '203.0.113.255'],
  ['224.0.0.0/4 multicast', '224.0.0.0', '239.255.255.255'],
  ['240.0.0.0/4 reserved', '240.0.0.0', '255.255.255.254'],
  ['255.255.255.255/32 limited broadcast', '255.255.255.255', '255.255.255.255'],
];

const IPV6_SPECIAL: [range: string, first: string, last: string][] = [
  ['::/128 unspecified', '::', '::'],
  ['::1/128 loopback', '::1', '::1'],
  ['::/96 IPv4-compatible (deprecated)', '::a9fe:a9fe', '::ffff:ffff'],
  ['::ffff:0:0/96 IPv4-mapped, of a non-public IPv4', '::ffff:169.254.169.254', '::ffff:10.255.255.255'],
  ['::ffff:0:0:0/96 IPv4-translated (SIIT)', '::ffff:0:a9fe:a9fe', '::ffff:0:5db8:d822'],
  ['64:ff9b::/96 NAT64 well-known prefix', '64:ff9b::', '64:ff9b::ffff:ffff'],
  ['64:ff9b:1::/48 NAT64 local-use', '64:ff9b:1::', '64:ff9b:1:ffff:ffff:ffff:ffff:ffff'],
  ['100::/64 discard-only', '100::', '100::ffff:ffff:ffff:ffff'],
  ['100:0:0:1::/64 dummy prefix', '100:0:0:1::', '100:0:0:1:ffff:ffff:ffff:ffff'],
  ['2001::/32 Teredo', '2001::', '2001:0:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['2001:1::1/128 PCP anycast', '2001:1::1', '2001:1::1'],
  ['2001:1::2/128 TURN anycast', '2001:1::2', '2001:1::2'],
  ['2001:1::3/128 DNS-SD SRP anycast', '2001:1::3', '2001:1::3'],
  ['2001::/23 IETF protocol assignments', '2001:5::', '2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['2001:2::/48 benchmarking', '2001:2::', '2001:2:0:ffff:ffff:ffff:ffff:ffff'],
  ['2001:3::/32 AMT', '2001:3::', '2001:3:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['2001:4:112::/48 AS112-v6', '2001:4:112::', '2001:4:112:ffff:ffff:ffff:ffff:ffff'],
  ['2001:10::/28 deprecated ORCHID', '2001:10::', '2001:1f:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['2001:20::/28 ORCHIDv2', '2001:20::', '2001:2f:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['2001:30::/28 drone remote ID entity tags', '2001:30::', '2001:3f:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['2001:db8::/32 documentation', '2001:db8::', '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['2002::/16 6to4', '2002::', '2002:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['2620:4f:8000::/48 direct delegation AS112', '2620:4f:8000::', '2620:4f:8000:ffff:ffff:ffff:ffff:ffff'],
  ['3fff::/20 documentation', '3fff::', '3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['5f00::/16 SRv6 SIDs', '5f00::', '5f00:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['fc00::/7 unique-local', 'fc00::', 'fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['fe80::/10 link-local', 'fe80::', 'febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['fec0::/10 site-local (deprecated)', 'fec0::', 'feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['ff00::/8 multicast', 'ff00::', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['4000::/2 outside global unicast 2000::/3', '4000::', '5eff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
  ['200::/7 outside global unicast 2000::/3', '200::', '3ff:ffff:ffff:ffff:ffff:ffff:ffff:ffff'],
];

const PUBLIC: [what: string, address: string][] = [
  ['IPv4 unicast', '93.184.216.34'],
  ['IPv4 next to 10/8', '11.0.0.0'],
  ['IPv4 next to 172.16/12', '172.32.0.1'],
  ['IPv4 next to 192.168/16', '192.169.0.1'],
  ['IPv4 next to 100.64/10', '100.128.0.1'],
  ['IPv4 next to 198.18/15', '198.20.0.1'],
  ['IPv4 next to 192.0.0/24', '192.0.1.1'],
  ['IPv4 public, mapped into IPv6', '::ffff:93.184.216.34'],
  ['IPv6 global unicast', '2606:4700::1111'],
  ['IPv6 next to 2001::/23', '2001:200::1'],
  ['IPv6 next to 2001:db8::/32', '2001:db9::1'],
  ['IPv6 next to 3fff::/20', '3fff:1000::1'],
  ['IPv6 next to 2620:4f:8000::/48', '2620:4f:8001::1'],
];

describe('Webhook addresses: every special-purpose range is refused', () => {
  test.each(IPV4_SPECIAL)('IPv4 %s: %s and %s are not public', (_range, first, last) => {
    expect([nonPublicRange(first), nonPublicRange(last)]).toEqual([expect.any(String), expect.any(String)]);
  });

  test.each(IPV6_SPECIAL)('IPv6 %s: %s and %s are not public', (_range, first, last) => {
    expect([nonPublicRange(first), nonPublicRange(last)]).toEqual([expect.any(String), expect.any(String)]);
  });

  test.each(PUBLIC)('%s: %s is public', (_what, address) => {
    expect(nonPublicRange(address)).toBeUndefined();
  });
});
