import 'server-only'
import net from 'node:net'

// IANA special-purpose IPv4 blocks: nothing in them is a public web server.
const SPECIAL_IPV4: [string, number][] = [
  ['0.0.0.0', 8], // "this network", unspecified
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, with the cloud metadata service 169.254.169.254
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, limited broadcast
]

// IPv6 is allowed only in global unicast 2000::/3, which leaves out ::, ::1, mapped and
// compatible IPv4 (checked as IPv4 below), NAT64 64:ff9b::/96, fc00::/7, fe80::/10, ff00::/8.
// Inside 2000::/3 these still reach private or special networks:
const SPECIAL_IPV6: [string, number][] = [
  ['2001::', 23], // IETF protocol assignments, with Teredo 2001::/32 (tunnels to any IPv4)
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: carries an arbitrary IPv4 address
  ['3fff::', 20], // documentation
]

const special = new net.BlockList()
for (const [address, prefix] of SPECIAL_IPV4) special.addSubnet(address, prefix, 'ipv4')
for (const [address, prefix] of SPECIAL_IPV6) special.addSubnet(address, prefix, 'ipv6')
const globalUnicast = new net.BlockList()
globalUnicast.addSubnet('2000::', 3, 'ipv6')
const mappedIpv4 = new net.BlockList()
mappedIpv4.addSubnet('::ffff:0:0', 96, 'ipv6')

/** Whether an IP address (v4 or v6, no zone) belongs to the public internet. */
export function isPublicAddress(address: string): boolean {
  const family = net.isIP(address)
  if (family === 4) return !special.check(address, 'ipv4')
  if (family !== 6 || address.includes('%')) return false
  // BlockList matches an IPv4-mapped IPv6 address against the IPv4 rules.
  if (mappedIpv4.check(address, 'ipv6')) return !special.check(address, 'ipv6')
  return globalUnicast.check(address, 'ipv6') && !special.check(address, 'ipv6')
}
