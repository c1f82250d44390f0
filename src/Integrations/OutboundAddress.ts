import ipaddr from "ipaddr.js"

/**
 * Which network addresses an outbound request (a webhook, a Slack post) may reach.
 *
 * A service that posts to URLs its users give must not become their way into its own network: the
 * machine itself, the private network around it, a cloud's metadata service (whose answers hold
 * credentials). Only global unicast addresses are allowed; ipaddr.js names the special ranges of
 * both families (its table follows the IANA special-purpose registries), so this file keeps no
 * list of its own beyond what that table leaves out.
 */

/** Cloud metadata services, refused even when private addresses are allowed. */
const METADATA = new Set([
  "169.254.169.254", // AWS, GCP, Azure, OpenStack, DigitalOcean...
  "169.254.170.2", // AWS ECS task metadata
  "100.100.100.200", // Alibaba Cloud
  "192.0.0.192", // Oracle Cloud (classic)
  "fd00:ec2::254" // AWS over IPv6
])

export type AddressVerdict =
  | { readonly allowed: true }
  | { readonly allowed: false; readonly range: string }

/**
 * The verdict on one address given as text. An IPv4 address written in IPv6 (`::ffff:127.0.0.1`,
 * `::127.0.0.1`) is judged as the IPv4 address it carries. Addresses that embed another one
 * (NAT64 `64:ff9b::/96`, 6to4 `2002::/16`, Teredo) are refused: what they reach depends on a
 * gateway the service cannot see.
 */
export const addressVerdict = (text: string, allowPrivate: boolean): AddressVerdict => {
  if (!ipaddr.isValid(text)) return { allowed: false, range: "invalid" }
  let address = ipaddr.process(text)
  // IPv4-compatible IPv6 (`::a.b.c.d`, deprecated by RFC 4291 but still routed by some stacks).
  if (address.kind() === "ipv6") {
    const parts = (address as ipaddr.IPv6).parts
    if (parts.slice(0, 6).every((part) => part === 0) && (parts[6] !== 0 || parts[7]! > 1)) {
      address = new ipaddr.IPv4([parts[6]! >> 8, parts[6]! & 0xff, parts[7]! >> 8, parts[7]! & 0xff])
    }
  }
  const normal = address.toNormalizedString()
  const canonical = address.kind() === "ipv6" ? (address as ipaddr.IPv6).toString() : normal
  if (METADATA.has(normal) || METADATA.has(canonical)) return { allowed: false, range: "metadata" }
  if (allowPrivate) return { allowed: true }
  const range = address.range()
  return range === "unicast" ? { allowed: true } : { allowed: false, range }
}
