import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from "node:dns"
import { isIP } from "node:net"
import { addressVerdict } from "./OutboundAddress.ts"

/**
 * The guard on URLs the service sends requests to on its users' behalf (webhooks, Slack).
 *
 * - `https:` only, unless `allowHttp`; no user name or password in the URL (they would be logged and
 *   shown back); at most 2048 characters.
 * - The host must not be a name of the machine itself (`localhost`, `*.localhost`) or of a metadata
 *   service, and every address it resolves to must be public (OutboundAddress.ts), unless
 *   `allowPrivate` (`WEBHOOK_ALLOW_PRIVATE=true`, for tests and networks where receivers are
 *   private on purpose). Metadata services stay refused even then.
 * - The check runs when a URL is saved (checkUrl, resolveTarget) and again on every connection
 *   (guardedLookup): DNS can change between the two, and a name can answer a public address to the
 *   check and a private one to the connection (DNS rebinding). The connection is made to the very
 *   addresses that were checked, since the lookup that checks is the one the socket uses.
 * - Redirects: webhook deliveries follow none. A client that does follow them must check each
 *   target with redirectTarget before requesting it.
 */
export interface OutboundPolicy {
  readonly allowHttp: boolean
  readonly allowPrivate: boolean
}

export const strictPolicy: OutboundPolicy = { allowHttp: false, allowPrivate: false }

export const MAX_URL_LENGTH = 2048

export type RefusalReason = "invalid_url" | "scheme" | "credentials" | "too_long" | "local_name" | "private_address" | "unresolvable"

/** Why a URL is refused, in words fit for an API error (never with the URL's secrets). */
export class OutboundRefused extends Error {
  readonly _tag = "OutboundRefused"
  /** Node's network errors carry a code; this one lets a socket error be told apart. */
  readonly code = "EOUTBOUNDREFUSED"
  constructor(readonly reason: RefusalReason, message: string) {
    super(message)
  }
}

/** Names of the machine itself (RFC 6761) and of metadata services, lower case, no final dot. */
const isLocalName = (host: string): boolean => host === "localhost" || host.endsWith(".localhost")
const isMetadataName = (host: string): boolean =>
  host === "metadata" || host === "metadata.google.internal" || host === "instance-data" || host.endsWith(".metadata.google.internal")

/** The URL's host without IPv6 brackets and final dot, in lower case. */
export const hostOf = (url: URL): string => url.hostname.replace(/^\[|\]$/g, "").replace(/\.$/, "").toLowerCase()

/**
 * What can be checked without the network: the URL parses (WHATWG rules, which also turn
 * `http://2130706433/` and `http://0x7f.1/` into `127.0.0.1`), its scheme, credentials and length,
 * its host when that is an address or a local name.
 */
export const checkUrl = (text: string, policy: OutboundPolicy): URL | OutboundRefused => {
  if (text.length > MAX_URL_LENGTH) return new OutboundRefused("too_long", `The URL is longer than ${MAX_URL_LENGTH} characters.`)
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return new OutboundRefused("invalid_url", "The URL is not a valid absolute URL.")
  }
  const schemes = policy.allowHttp ? ["https:", "http:"] : ["https:"]
  if (!schemes.includes(url.protocol)) {
    return new OutboundRefused("scheme", policy.allowHttp ? "The URL must start with https:// or http://." : "The URL must start with https://.")
  }
  if (url.username !== "" || url.password !== "") {
    return new OutboundRefused("credentials", "The URL must not hold a user name or password.")
  }
  const host = hostOf(url)
  if (host === "") return new OutboundRefused("invalid_url", "The URL has no host.")
  if (isMetadataName(host) || (!policy.allowPrivate && isLocalName(host))) {
    return new OutboundRefused("local_name", "The URL names this machine or a metadata service.")
  }
  if (isIP(host) !== 0) {
    const verdict = addressVerdict(host, policy.allowPrivate)
    if (!verdict.allowed) return new OutboundRefused("private_address", `The URL's address is not public (${verdict.range}).`)
  }
  return url
}

/** A redirect's target, resolved against the URL that answered it and checked like any URL. */
export const redirectTarget = (from: URL, location: string, policy: OutboundPolicy): URL | OutboundRefused => {
  let target: URL
  try {
    target = new URL(location, from)
  } catch {
    return new OutboundRefused("invalid_url", "The redirect's location is not a valid URL.")
  }
  return checkUrl(target.href, policy)
}

export type Resolver = (host: string) => Promise<ReadonlyArray<LookupAddress>>

/** The system resolver (getaddrinfo, as sockets use it: /etc/hosts included), every address. */
export const systemResolver: Resolver = (host) =>
  new Promise((resolve, reject) => {
    dnsLookup(host, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses)))
  })

/** The addresses of a host when every one is allowed; refused when any is not, or when there is none. */
export const checkAddresses = (addresses: ReadonlyArray<LookupAddress>, policy: OutboundPolicy): ReadonlyArray<LookupAddress> | OutboundRefused => {
  if (addresses.length === 0) return new OutboundRefused("unresolvable", "The URL's host has no address.")
  for (const { address } of addresses) {
    const verdict = addressVerdict(address, policy.allowPrivate)
    // One private address is enough to refuse: which one a client picks is not ours to choose.
    if (!verdict.allowed) return new OutboundRefused("private_address", `The URL's host resolves to an address that is not public (${verdict.range}).`)
  }
  return addresses
}

/** The full check of a URL: checkUrl, then its host's addresses. */
export const resolveTarget = async (
  text: string,
  policy: OutboundPolicy,
  resolver: Resolver = systemResolver
): Promise<{ readonly url: URL; readonly addresses: ReadonlyArray<LookupAddress> } | OutboundRefused> => {
  const url = checkUrl(text, policy)
  if (url instanceof OutboundRefused) return url
  const host = hostOf(url)
  if (isIP(host) !== 0) return { url, addresses: [{ address: host, family: isIP(host) }] }
  let addresses: ReadonlyArray<LookupAddress>
  try {
    addresses = await resolver(host)
  } catch {
    return new OutboundRefused("unresolvable", "The URL's host does not resolve.")
  }
  const checked = checkAddresses(addresses, policy)
  return checked instanceof OutboundRefused ? checked : { url, addresses: checked }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | Array<LookupAddress>, family?: number) => void

/**
 * A `lookup` for `http.request`, `https.request` or `net.connect` that resolves with `resolver` and
 * refuses, as a socket error, a host with any address the policy does not allow. Given to the
 * request, it makes the check and the connection use the same answer.
 */
export const guardedLookup = (policy: OutboundPolicy, resolver: Resolver = systemResolver) =>
  (hostname: string, options: LookupAllOptions | { all?: boolean; family?: number | string } | number, callback: LookupCallback): void => {
    const all = typeof options === "object" && options.all === true
    const family = typeof options === "number" ? options : typeof options === "object" ? options.family : undefined
    const wanted = family === 4 || family === "IPv4" ? 4 : family === 6 || family === "IPv6" ? 6 : 0
    const host = hostname.replace(/^\[|\]$/g, "")
    const answer = isIP(host) !== 0 ? Promise.resolve([{ address: host, family: isIP(host) }]) : resolver(host)
    answer.then(
      (addresses) => {
        const checked = checkAddresses(addresses, policy)
        if (checked instanceof OutboundRefused) return callback(checked, all ? [] : "", 0)
        const usable = wanted === 0 ? checked : checked.filter((entry) => entry.family === wanted)
        if (usable.length === 0) return callback(new OutboundRefused("unresolvable", "The URL's host has no address of the family asked for."), all ? [] : "", 0)
        if (all) return callback(null, [...usable])
        const first = usable[0]!
        callback(null, first.address, first.family)
      },
      (error: NodeJS.ErrnoException) => callback(error, all ? [] : "", 0)
    )
  }
