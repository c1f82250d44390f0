/**
 * What is stored of an answer for brand suggestions (docs/suggestions.md, "Storage"): its candidates'
 * daily rollups, one row per key, UTC day, platform, prompt and country, and the passage around each
 * candidate's first name (the examples). Pure: recording answers one at a time or all at once gives the
 * same rows once summed (`mergeStoredRollups`), which is what makes `candidates rebuild` equal the
 * incremental path.
 *
 * A variant of another candidate of the same answer ("Hoka Clifton 9" beside "Hoka") is folded into it
 * here, so that the answer counts once; variants across answers are resolved over a window when read
 * (`Window.ts`).
 */
import type { BrandToDetect } from "../Detection/Mentions.ts"
import type { Platform } from "../Domain/Platform.ts"
import { addRollups, type AnalysedAnswer, type DailyRollup, examplesOf, mergeRowsBy, rollUp } from "./Evidence.ts"
import { extractCandidates } from "./Extraction.ts"
import { categoryWordsOf } from "./Keys.ts"
import { variantKeys, withVariants } from "./Variants.ts"

/** A stored answer, as recording reads it. */
export interface AnswerToRecord {
  readonly id: number
  readonly prompt_id: number
  readonly platform: Platform
  readonly country: string
  readonly collected_at: Date
  readonly text: string
  /** The URLs it cites, in order. */
  readonly citations: ReadonlyArray<string>
}

/** What recording needs of the project: its brands (ignored ones included) and its prompts' texts by id. */
export interface ProjectVocabulary {
  readonly brands: ReadonlyArray<BrandToDetect>
  readonly prompts: ReadonlyMap<number, string>
}

/** A daily rollup with its country and the answers that confirm the name (docs/suggestions.md, "Confirmation"). */
export interface StoredRollup extends DailyRollup {
  readonly country: string
  readonly confirmed: number
}

export interface StoredExample {
  readonly key: string
  readonly response_id: number
  readonly day: string
  readonly platform: Platform
  readonly snippet: string
  readonly highlight_start: number
  readonly highlight_end: number
  readonly offset: number
}

export interface Recording {
  readonly rollups: ReadonlyArray<StoredRollup>
  /** Every answer's passage per key; the store keeps the latest `EXAMPLES_KEPT` per key. */
  readonly examples: ReadonlyArray<StoredExample>
}

export const EXAMPLES_KEPT = 3

const dayOf = (at: Date): string => at.toISOString().slice(0, 10)

const storedId = (r: StoredRollup): string => `${r.key}\u0000${r.day}\u0000${r.platform}\u0000${r.prompt_id}\u0000${r.country}`


/** Two rollups of the same row added. */
export const addStoredRollups = (a: StoredRollup, b: StoredRollup): StoredRollup => ({
  ...addRollups(a, b),
  confirmed: a.confirmed + b.confirmed
})

/** Rows summed per (key, day, platform, prompt, country), in that order. */
export const mergeStoredRollups: (...lists: ReadonlyArray<ReadonlyArray<StoredRollup>>) => Array<StoredRollup> = mergeRowsBy<StoredRollup>(
  storedId,
  addStoredRollups
)

/** The latest `EXAMPLES_KEPT` examples per key (by day, then answer id, newest first), by key. */
export const latestExamples = (examples: ReadonlyArray<StoredExample>): Array<StoredExample> => {
  const byKey = new Map<string, Array<StoredExample>>()
  for (const e of examples) byKey.set(e.key, [...(byKey.get(e.key) ?? []), e])
  return [...byKey.keys()].sort().flatMap((key) =>
    byKey.get(key)!.sort(newestFirst).slice(0, EXAMPLES_KEPT)
  )
}

export const newestFirst = (a: StoredExample, b: StoredExample): number =>
  a.day < b.day ? 1 : a.day > b.day ? -1 : b.response_id - a.response_id

/** The rollups and examples of some answers of one project. */
export const record = (answers: ReadonlyArray<AnswerToRecord>, project: ProjectVocabulary): Recording => {
  const categoryWords = categoryWordsOf([...project.prompts.values()])
  const rollups: Array<StoredRollup> = []
  const examples: Array<StoredExample> = []
  for (const answer of answers) {
    const extraction = extractCandidates({ text: answer.text, citations: answer.citations }, {
      tracked: project.brands,
      prompt: project.prompts.get(answer.prompt_id) ?? "",
      categoryWords
    })
    const day = dayOf(answer.collected_at)
    const analysed = (e: typeof extraction): AnalysedAnswer => ({
      answer_id: answer.id,
      prompt_id: answer.prompt_id,
      platform: answer.platform,
      day,
      text: answer.text,
      extraction: e
    })
    // Variants within the answer: a name whose leading words are another candidate of the same answer.
    const folded = withVariants(extraction, variantKeys(rollUp([analysed(extraction)]), categoryWords))
    const confirmedKeys = new Set(folded.candidates.filter((c) => c.confirmed).map((c) => c.key))
    for (const row of rollUp([analysed(folded)])) {
      rollups.push({ ...row, country: answer.country, confirmed: confirmedKeys.has(row.key) ? 1 : 0 })
    }
    for (const c of folded.candidates) {
      const [example] = examplesOf([analysed(folded)], c.key, 1)
      if (example === undefined) continue
      examples.push({
        key: c.key,
        response_id: answer.id,
        day,
        platform: answer.platform,
        snippet: example.snippet,
        highlight_start: example.highlight.start,
        highlight_end: example.highlight.end,
        offset: example.offset
      })
    }
  }
  return { rollups: mergeStoredRollups(rollups), examples: latestExamples(examples) }
}
