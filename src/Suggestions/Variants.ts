/**
 * Variants across answers (docs/suggestions.md, "Variants"): a name of several words whose leading words
 * are themselves a candidate of the window is a variant of that candidate. "Hoka Clifton 9" and "Asics
 * Gel-Kayano 31" are Hoka and Asics when Hoka and Asics are named alone (or by their domains) somewhere in
 * the window; "Proton Pass" stays Proton Pass when nothing says "Proton" alone. And a name an answer
 * only writes at the start of sentences counts when another answer of the window confirms it.
 */
import type { DailyRollup } from "./Evidence.ts"
import type { AnswerCandidate, AnswerExtraction } from "./Extraction.ts"
import { keyOf } from "./Keys.ts"
import { defaultCategoryWords } from "./Vocabulary.ts"

/**
 * Each key that is a variant of another, mapped to it: the most used spelling's longest proper prefix
 * of words whose key is another named candidate's key; for a candidate only domains point at, the named
 * candidate its label starts with or that starts with its label (a chain is followed to its end).
 */
export const variantKeys = (rollups: ReadonlyArray<DailyRollup>, categoryWords: ReadonlySet<string> = defaultCategoryWords): Map<string, string> => {
  const spellings = new Map<string, Map<string, number>>()
  for (const row of rollups) {
    const counts = spellings.get(row.key) ?? new Map<string, number>()
    for (const [name, n] of Object.entries(row.variants)) counts.set(name, (counts.get(name) ?? 0) + n)
    spellings.set(row.key, counts)
  }
  const direct = new Map<string, string>()
  for (const [key, counts] of spellings) {
    const top = [...counts].sort(([a, n], [b, m]) => m - n || a.length - b.length || (a < b ? -1 : a > b ? 1 : 0))[0]?.[0]
    if (top === undefined) {
      // A domain never named is the name its main label starts with ("altrarunning.com": Altra), else the
      // name that starts with its label ("proton.me": Proton Pass).
      const named = [...spellings.keys()].filter((k) => k !== key && spellings.get(k)!.size > 0)
      const byOrder = (a: string, b: string) => a.length - b.length || (a < b ? -1 : 1)
      const target = named.filter((k) => k.length >= 4 && key.startsWith(k)).sort(byOrder).at(-1) ??
        named.filter((k) => key.length >= 4 && k.startsWith(key)).sort(byOrder)[0]
      if (target !== undefined) direct.set(key, target)
      continue
    }
    const words = top.split(/\s+/u)
    for (let n = words.length - 1; n >= 1; n--) {
      const prefix = keyOf(words.slice(0, n).join(" "), categoryWords)
      if (prefix !== key && (spellings.get(prefix)?.size ?? 0) > 0) {
        direct.set(key, prefix)
        break
      }
    }
  }
  const resolved = new Map<string, string>()
  for (const key of direct.keys()) {
    let target = direct.get(key)!
    // Prefixes are shorter, so a chain ends.
    while (direct.has(target)) target = direct.get(target)!
    resolved.set(key, target)
  }
  return resolved
}

/**
 * An answer's candidates with every variant folded into the candidate it is a variant of (within the
 * answer, so that an answer naming "Hoka" and "Hoka Clifton 9" still counts once): spellings, domains
 * and occurrences joined, flags or-ed, the earlier order kept.
 */
export const withVariants = (extraction: AnswerExtraction, variants: ReadonlyMap<string, string>): AnswerExtraction => {
  const byKey = new Map<string, AnswerCandidate>()
  for (const candidate of extraction.candidates) {
    const key = variants.get(candidate.key) ?? candidate.key
    const held = byKey.get(key)
    byKey.set(key, held === undefined ? { ...candidate, key } : {
      confirmed: held.confirmed || candidate.confirmed,
      key,
      spellings: [...new Set([...held.spellings, ...candidate.spellings])],
      domains: [...new Set([...held.domains, ...candidate.domains])],
      occurrences: [...held.occurrences, ...candidate.occurrences].sort((a, b) => a.start - b.start),
      order: Math.min(held.order, candidate.order),
      inList: held.inList || candidate.inList,
      bold: held.bold || candidate.bold,
      linked: held.linked || candidate.linked,
      cited: held.cited || candidate.cited
    })
  }
  return { ...extraction, candidates: [...byKey.values()].sort((a, b) => a.order - b.order) }
}

/** The keys some answer confirms (`AnswerCandidate.confirmed`). */
export const confirmedKeys = (extractions: ReadonlyArray<AnswerExtraction>): ReadonlySet<string> =>
  new Set(extractions.flatMap((e) => e.candidates.filter((c) => c.confirmed).map((c) => c.key)))

/** An answer's candidates less the unconfirmed ones no answer of the window confirms. */
export const withConfirmedNames = (extraction: AnswerExtraction, confirmed: ReadonlySet<string>): AnswerExtraction => ({
  ...extraction,
  candidates: extraction.candidates.filter((c) => c.confirmed || confirmed.has(c.key))
})
