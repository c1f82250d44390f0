/**
 * The category of a source domain (docs/detection.md, "Source categories"): `own` and `competitor` from
 * the project's brands, then the rules of `hosts.json` (`HostRules.ts`). Pure: the brands' domains come
 * in as plain data, so the caller decides which brands are the project's own and which compete.
 */
import { normalizeDomain } from "../Detection/Matching.ts"
import { matchHostRules, type HostRuleMatch, ruleCategories } from "./HostRules.ts"

export const sourceCategories = ["own", "competitor", ...ruleCategories] as const
export type SourceCategory = (typeof sourceCategories)[number]

export interface BrandDomains {
  /** The project's own domains: the project's `domain` and its own brand's `domains`. */
  readonly own: ReadonlyArray<string>
  /** The domains of the brands that compete with it. */
  readonly competitors: ReadonlyArray<string>
}

export interface SourceCategorization {
  readonly category: SourceCategory
  /** `own` or `competitor` when a brand's domain claimed the source; otherwise the host rule's kind. */
  readonly rule: "own" | "competitor" | HostRuleMatch["rule"]
  /** The brand domain, host entry, suffix rule or heuristic word that matched (docs/detection.md). */
  readonly matched: string
}

/**
 * A categorizer for one project's brands, to apply to many sources. A brand's domain covers itself and
 * its subdomains, as for brand mentions (`coversDomain` in Matching.ts); the longest covering domain wins, and a domain
 * listed as both own and competitor is own. Brands come before every host rule: a project whose own
 * domain is `reddit.com` sees `reddit.com` as `own`, not `ugc`.
 */
export const sourceCategorizer = (brands: BrandDomains): ((domain: string) => SourceCategorization) => {
  const owners = new Map<string, "own" | "competitor">()
  for (const [side, domains] of [["competitor", brands.competitors], ["own", brands.own]] as const) {
    for (const raw of domains) {
      const domain = normalizeDomain(raw)
      if (domain !== undefined) owners.set(domain, side)
    }
  }
  return (raw) => {
    const domain = normalizeDomain(raw)
    if (domain === undefined) return { category: "other", rule: "default", matched: "" }
    // The domain, then each parent domain: the longest brand domain that covers it wins.
    for (let candidate = domain; ; ) {
      const side = owners.get(candidate)
      if (side !== undefined) return { category: side, rule: side, matched: candidate }
      const dot = candidate.indexOf(".")
      if (dot === -1) break
      candidate = candidate.slice(dot + 1)
    }
    const match = matchHostRules(domain)
    return { category: match.category, rule: match.rule, matched: match.matched }
  }
}

/** The category of one source domain; for many, build one `sourceCategorizer`. */
export const categorizeSource = (domain: string, brands: BrandDomains): SourceCategorization =>
  sourceCategorizer(brands)(domain)
