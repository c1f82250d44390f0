/**
 * The candidates of a window (docs/suggestions.md): the stored rollups of the window's answers, less the
 * names no answer of the window confirms and the keys tracked since, with variants folded into the
 * candidate they are variants of, summed per candidate. Pure.
 */
import { type CandidateEvidence, evidenceOf } from "./Evidence.ts"
import type { StoredRollup } from "./Recording.ts"
import { variantKeys } from "./Variants.ts"

export interface WindowCandidates {
  readonly evidence: ReadonlyArray<CandidateEvidence>
  /** Each stored key that is shown under another (a variant), mapped to it. */
  readonly variantOf: ReadonlyMap<string, string>
}

export const windowCandidates = (
  rollups: ReadonlyArray<StoredRollup>,
  options: { readonly trackedKeys: ReadonlySet<string>; readonly categoryWords: ReadonlySet<string> }
): WindowCandidates => {
  const confirmed = new Set<string>()
  for (const row of rollups) if (row.confirmed > 0) confirmed.add(row.key)
  const kept = rollups.filter((row) => confirmed.has(row.key) && !options.trackedKeys.has(row.key))
  const variantOf = variantKeys(kept, options.categoryWords)
  const folded = kept.map((row) => {
    const key = variantOf.get(row.key)
    return key === undefined ? row : { ...row, key }
  })
  return { evidence: evidenceOf(folded), variantOf }
}
