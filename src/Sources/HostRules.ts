/**
 * The rules of `hosts.json` (docs/detection.md, "Source categories"): which group, public suffix or
 * heuristic claims a host, the category it gives, and whether the host belongs on the stop-list of
 * brand suggestions. Pure; the data file is decoded once, when this module loads, and a malformed file
 * fails the load.
 */
import { Schema } from "effect"
import { parse } from "tldts"
import data from "./hosts.json" with { type: "json" }

/** The categories a rule can give (`own` and `competitor` come from the project's brands). */
export const ruleCategories = ["editorial", "ugc", "reference", "institutional", "corporate", "other"] as const
export type RuleCategory = (typeof ruleCategories)[number]

const RuleCategory = Schema.Literal(...ruleCategories)
const Label = Schema.String.pipe(Schema.pattern(/^[a-z0-9-]+$/))
/** `example.com` or `name.*`. */
const HostEntry = Schema.String.pipe(Schema.pattern(/^(?:[a-z0-9-]+\.)+[a-z0-9-]+$|^[a-z0-9-]+\.\*$/))
/** `gov`, `gov.uk` or `gov.*`. */
const SuffixEntry = Schema.String.pipe(Schema.pattern(/^[a-z0-9-]+(?:\.[a-z0-9-]+)*(?:\.\*)?$/))

const Rule = {
  name: Schema.String,
  description: Schema.String,
  category: RuleCategory,
  stop_list: Schema.Boolean
}

const HostsFile = Schema.Struct({
  groups: Schema.Array(Schema.Struct({ ...Rule, hosts: Schema.Array(HostEntry) })),
  suffixes: Schema.Array(Schema.Struct({ ...Rule, suffixes: Schema.Array(SuffixEntry) })),
  heuristics: Schema.Array(
    Schema.Struct({
      ...Rule,
      subdomain_first_labels: Schema.optional(Schema.Array(Label)),
      name_contains: Schema.optional(Schema.Array(Schema.String)),
      name_starts: Schema.optional(Schema.Array(Schema.String))
    })
  ),
  defaults: Schema.Struct({ description: Schema.String, non_commercial_suffixes: Schema.Array(SuffixEntry) })
})

export const hostsFile = Schema.decodeUnknownSync(HostsFile)(data)

/** What claimed a host. */
export interface HostRuleMatch {
  /** `host`: a group's host list; `suffix`: a public-suffix rule; `heuristic`; `default`. */
  readonly rule: "host" | "suffix" | "heuristic" | "default"
  /** The group, suffix rule or heuristic's name (`forum`, `government`, `news_name`), or the default's. */
  readonly name: string
  readonly category: RuleCategory
  /** Never a brand to suggest. */
  readonly stopList: boolean
  /** The entry that matched: `reddit.com`, `amazon.*`, `gov.*`, `news`; the public suffix for a default. */
  readonly matched: string
}

interface NamedRule {
  readonly name: string
  readonly category: RuleCategory
  readonly stop_list: boolean
}

const hostEntries = new Map<string, NamedRule>()
const nameEntries = new Map<string, NamedRule>()
for (const group of hostsFile.groups) {
  for (const entry of group.hosts) {
    if (entry.endsWith(".*")) nameEntries.set(entry.slice(0, -2), group)
    else hostEntries.set(entry, group)
  }
}

/** Exact public suffixes (`gov`, `gc.ca`) and first labels of wildcard ones (`gov` for `gov.*`). */
const suffixTable = (entries: ReadonlyArray<string>) => ({
  exact: new Set(entries.filter((s) => !s.endsWith(".*"))),
  firstLabels: new Set(entries.filter((s) => s.endsWith(".*")).map((s) => s.slice(0, -2)))
})

/** The rule entry that covers a public suffix, if any: `gov.uk` is covered by `gov.*`. */
const suffixMatch = (table: ReturnType<typeof suffixTable>, suffix: string): string | undefined => {
  if (table.exact.has(suffix)) return suffix
  const dot = suffix.indexOf(".")
  return dot !== -1 && table.firstLabels.has(suffix.slice(0, dot)) ? `${suffix.slice(0, dot)}.*` : undefined
}

const suffixRules = hostsFile.suffixes.map((rule) => ({ rule, table: suffixTable(rule.suffixes) }))
const nonCommercial = suffixTable(hostsFile.defaults.non_commercial_suffixes)

const found = (rule: HostRuleMatch["rule"], named: NamedRule, matched: string): HostRuleMatch => ({
  rule,
  name: named.name,
  category: named.category,
  stopList: named.stop_list,
  matched
})

/**
 * The rule that claims a host (lower-case, without a leading `www.`: a Source `domain`): the longest
 * host entry that covers it, else a name entry (`amazon.*`) for its registrable domain, else a suffix
 * rule, else a heuristic, else the defaults.
 */
export const matchHostRules = (host: string): HostRuleMatch => {
  for (let candidate = host; ; ) {
    const group = hostEntries.get(candidate)
    if (group !== undefined) return found("host", group, candidate)
    const dot = candidate.indexOf(".")
    if (dot === -1) break
    candidate = candidate.slice(dot + 1)
  }

  const parsed = parse(host, { extractHostname: false })
  const name = parsed.domainWithoutSuffix
  const named = name === null || name === "" ? undefined : nameEntries.get(name)
  if (named !== undefined) return found("host", named, `${name}.*`)

  const suffix = parsed.isIp === true ? null : parsed.publicSuffix
  if (suffix !== null) {
    for (const { rule, table } of suffixRules) {
      const matched = suffixMatch(table, suffix)
      if (matched !== undefined) return found("suffix", rule, matched)
    }
  }

  const firstLabel = parsed.subdomain === null || parsed.subdomain === "" ? undefined : host.slice(0, host.indexOf("."))
  for (const heuristic of hostsFile.heuristics) {
    if (firstLabel !== undefined && heuristic.subdomain_first_labels?.includes(firstLabel)) {
      return found("heuristic", heuristic, firstLabel)
    }
    if (name !== null && name !== "") {
      const contained = heuristic.name_contains?.find((word) => name.includes(word))
      if (contained !== undefined) return found("heuristic", heuristic, contained)
      const start = heuristic.name_starts?.find((prefix) => name.startsWith(prefix))
      if (start !== undefined) return found("heuristic", heuristic, start)
    }
  }

  if (parsed.domain === null || parsed.isIcann !== true || suffix === null) {
    return { rule: "default", name: "no_registrable_domain", category: "other", stopList: false, matched: suffix ?? "" }
  }
  if (suffixMatch(nonCommercial, suffix) !== undefined) {
    return { rule: "default", name: "non_commercial", category: "other", stopList: false, matched: suffix }
  }
  return { rule: "default", name: "commercial", category: "corporate", stopList: false, matched: suffix }
}

/** Whether brand suggestions must never offer this host (a Source `domain`). */
export const isStopListed = (host: string): boolean => matchHostRules(host).stopList
