import { Schema } from "effect"
import ipaddr from "ipaddr.js"
import { createHash } from "node:crypto"
import snapshotData from "./catalogue/ip-lists.json" with { type: "json" }

/**
 * The operators' published address lists (docs/agent-traffic.md, "Address lists"): the shape they are
 * published in, our snapshots of them (catalogue/ip-lists.json, shipped so that an offline install verifies
 * from its first day), and the prefix sets built from them.
 */

/**
 * Where a snapshot was taken from. The vendors' URLs cannot be reached from where the snapshot was made,
 * so each comes from a public repository that mirrors the list: `verbatim` when the mirror keeps the
 * operator's file as published (its `creationTime` is then known), `aggregated` when it keeps the same
 * addresses merged into fewer, larger prefixes.
 */
export const Mirror = Schema.Struct({
  repository: Schema.String,
  path: Schema.String,
  commit: Schema.String.pipe(Schema.pattern(/^[0-9a-f]{40}$/)),
  committedAt: Schema.String,
  /** The git blob id of the mirrored file: a hash of its exact bytes. */
  blob: Schema.String.pipe(Schema.pattern(/^[0-9a-f]{40}$/)),
  licence: Schema.String,
  form: Schema.Literal("verbatim", "aggregated")
})

export const Snapshot = Schema.Struct({
  id: Schema.String,
  /** The catalogue's published lists whose addresses this snapshot holds. */
  covers: Schema.NonEmptyArray(Schema.String),
  /** The operator's own `creationTime` of the list, when the mirror keeps it. */
  creationTime: Schema.NullOr(Schema.String),
  /** When the mirror last saw the list change, when it records that instead. */
  listChangedAt: Schema.NullOr(Schema.String),
  mirror: Mirror,
  /** SHA-256 (hex) of `prefixes`, one a line, each line ending with `\n`. */
  sha256: Schema.String.pipe(Schema.pattern(/^[0-9a-f]{64}$/)),
  prefixes: Schema.NonEmptyArray(Schema.String)
})
export type Snapshot = typeof Snapshot.Type

export const Snapshots = Schema.Struct({ snapshots: Schema.Array(Snapshot) })

/** The snapshots shipped with the service. */
export const shippedSnapshots: ReadonlyArray<Snapshot> = Schema.decodeUnknownSync(Snapshots)(snapshotData).snapshots

/** The hash a snapshot records of its prefixes. */
export const prefixesHash = (prefixes: ReadonlyArray<string>): string =>
  createHash("sha256")
    .update(prefixes.map((prefix) => `${prefix}\n`).join(""))
    .digest("hex")

/**
 * The shape most operators publish their list in (Google, Bing, OpenAI, Anthropic, Perplexity, Apple,
 * DuckDuckGo, Mistral, Common Crawl): `{"creationTime", "prefixes": [{"ipv4Prefix"} | {"ipv6Prefix"}]}`.
 */
const PublishedJson = Schema.Struct({
  creationTime: Schema.optional(Schema.String),
  prefixes: Schema.Array(
    Schema.Struct({ ipv4Prefix: Schema.optional(Schema.String), ipv6Prefix: Schema.optional(Schema.String) })
  )
})

export interface PublishedList {
  readonly creationTime: string | null
  readonly prefixes: ReadonlyArray<string>
}

/**
 * Reads a list in the published shape. Entries that are not a valid CIDR prefix are dropped (one
 * malformed entry must not discard the operator's whole list); a body that is not the shape at all
 * (an HTML error page served with a 200) is an error.
 */
export const parsePublishedList = (text: string): PublishedList => {
  const json = Schema.decodeUnknownSync(Schema.parseJson(PublishedJson))(text)
  const prefixes = json.prefixes
    .map((entry) => entry.ipv4Prefix ?? entry.ipv6Prefix)
    .filter((prefix): prefix is string => prefix !== undefined && isCidr(prefix))
  return { creationTime: json.creationTime ?? null, prefixes }
}

const isCidr = (text: string): boolean => {
  try {
    ipaddr.parseCIDR(text)
    return true
  } catch {
    return false
  }
}

/** A set of prefixes that answers whether an address belongs to it. */
export interface PrefixSet {
  readonly contains: (address: ipaddr.IPv4 | ipaddr.IPv6) => boolean
}

export const prefixSet = (prefixes: ReadonlyArray<string>): PrefixSet => {
  const v4: Array<[ipaddr.IPv4, number]> = []
  const v6: Array<[ipaddr.IPv6, number]> = []
  for (const prefix of prefixes) {
    const [address, length] = ipaddr.parseCIDR(prefix)
    if (address.kind() === "ipv4") v4.push([address as ipaddr.IPv4, length])
    else v6.push([address as ipaddr.IPv6, length])
  }
  return {
    contains: (address) =>
      address.kind() === "ipv4"
        ? v4.some((range) => (address as ipaddr.IPv4).match(range))
        : v6.some((range) => (address as ipaddr.IPv6).match(range))
  }
}

/** Published list id -> the prefix set of every snapshot that covers it. */
export type ListIndex = ReadonlyMap<string, PrefixSet>

export const listIndex = (snapshots: ReadonlyArray<Pick<Snapshot, "covers" | "prefixes">>): ListIndex => {
  const prefixesByList = new Map<string, Array<string>>()
  for (const snapshot of snapshots) {
    for (const list of snapshot.covers) {
      prefixesByList.set(list, [...(prefixesByList.get(list) ?? []), ...snapshot.prefixes])
    }
  }
  return new Map([...prefixesByList].map(([list, prefixes]) => [list, prefixSet(prefixes)]))
}
