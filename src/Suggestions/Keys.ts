/**
 * The key of a candidate name (docs/suggestions.md, "Variants"): the spellings of one brand share it, so
 * that "HubSpot CRM", "HubSpot", "Hubspot's" and "HubSpot, Inc." are counted as one candidate with four
 * variants, and a cited domain whose main label is the key ("hubspot.com") is linked to it.
 */
import { parse } from "tldts"
import { defaultCategoryWords, genericWords, legalSuffixes, plainWord } from "./Vocabulary.ts"

/**
 * The main label of a dotted name that is a registrable domain ("Monday.com" → "monday"), else
 * undefined ("Node.js" is not: `js` is no public suffix).
 */
export const domainLabelOf = (word: string): string | undefined => {
  const lower = word.toLowerCase()
  if (!/^[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+$/u.test(lower)) return undefined
  const parsed = parse(lower, { extractHostname: false })
  if (parsed.isIcann !== true || parsed.domain !== lower || !parsed.domainWithoutSuffix) return undefined
  return parsed.domainWithoutSuffix
}

/**
 * The key of a name: lower case, a registrable domain read as its main label, punctuation and
 * possessives dropped, then legal suffixes, category words and generic words dropped from the end
 * while a word is left ("Salesforce Sales Cloud" is Salesforce, "Zoho One" is Zoho), the words joined without spaces ("Active Campaign" and "ActiveCampaign" are one key). Empty
 * for a name without a letter or digit.
 */
export const keyOf = (name: string, categoryWords: ReadonlySet<string> = defaultCategoryWords): string => {
  const words = name
    .normalize("NFKC")
    .split(/\s+/u)
    .map((word) => {
      const plain = plainWord(word)
      return domainLabelOf(plain) ?? plain
    })
    .flatMap((word) => word.split(/[^\p{L}\p{M}\p{N}&+]+/u))
    .filter((word) => word !== "" && word !== "&")
  while (words.length > 1 && isTrailingWord(words.at(-1)!, categoryWords)) words.pop()
  return words.join("")
}

const isTrailingWord = (word: string, categoryWords: ReadonlySet<string>): boolean =>
  legalSuffixes.has(word) || categoryWords.has(word) || genericWords.has(word)

/** The key of a registrable domain: its main label without hyphens ("less-annoying-crm.com" → "lessannoyingcrm"). */
export const domainKeyOf = (domain: string): string => {
  const label = domainLabelOf(domain) ?? domain.toLowerCase()
  return label.replace(/-/gu, "")
}

/**
 * The category words of a project: the defaults and the words found in at least `minShare` of its
 * prompts (at least two prompts), so that a project about "password managers" merges "Bitwarden
 * Password Manager" into "Bitwarden".
 */
export const categoryWordsOf = (prompts: ReadonlyArray<string>, minShare = 0.2): ReadonlySet<string> => {
  const counts = new Map<string, number>()
  for (const prompt of prompts) {
    const seen = new Set(prompt.split(/\s+/u).map(plainWord).filter((w) => w.length > 1))
    for (const word of seen) counts.set(word, (counts.get(word) ?? 0) + 1)
  }
  const needed = Math.max(2, Math.ceil(minShare * prompts.length))
  const frequent = [...counts].filter(([word, n]) => n >= needed && /^\p{L}+$/u.test(word)).map(([word]) => word)
  // Plural and singular alike: "managers" in the prompts also drops "manager".
  const forms = frequent.flatMap((w) => (w.endsWith("s") ? [w, w.slice(0, -1)] : [w, `${w}s`]))
  return new Set([...defaultCategoryWords, ...forms])
}
