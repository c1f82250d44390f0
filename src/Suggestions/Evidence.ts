/**
 * The evidence behind each candidate (docs/suggestions.md, "Evidence"): daily rollups per candidate,
 * day, platform and prompt, summed over a window into one row per candidate, and a few example snippets.
 * Rollups are plain sums, so the rollups of all answers equal the merged rollups of any split of them
 * (a rebuild gives the rows the incremental path gave).
 */
import type { Platform } from "../Domain/Platform.ts"
import type { AnswerExtraction } from "./Extraction.ts"

/** One analysed answer, as the evidence needs it. */
export interface AnalysedAnswer {
  readonly answer_id: number
  readonly prompt_id: number
  readonly platform: Platform
  /** `YYYY-MM-DD` (UTC) of the answer's collection. */
  readonly day: string
  readonly text: string
  readonly extraction: AnswerExtraction
}

/** What one candidate got on one day, platform and prompt. */
export interface DailyRollup {
  readonly key: string
  readonly day: string
  readonly platform: Platform
  readonly prompt_id: number
  /** Answers naming or citing it. */
  readonly answers: number
  /** ... in a list item, heading or table row. */
  readonly in_list: number
  readonly bold: number
  readonly linked: number
  readonly cited: number
  /** ... together with a tracked competitor. */
  readonly with_competitor: number
  /** The sum of its orders among the brands of those answers. */
  readonly order_sum: number
  /** Answers per spelling ("HubSpot CRM": 3). */
  readonly variants: Readonly<Record<string, number>>
  /** Answers per linked domain. */
  readonly domains: Readonly<Record<string, number>>
}

const rollupId = (r: Pick<DailyRollup, "key" | "day" | "platform" | "prompt_id">): string =>
  `${r.key}\u0000${r.day}\u0000${r.platform}\u0000${r.prompt_id}`

const addCounts = (a: Readonly<Record<string, number>>, b: Readonly<Record<string, number>>): Record<string, number> => {
  const sum: Record<string, number> = { ...a }
  for (const [k, n] of Object.entries(b)) sum[k] = (sum[k] ?? 0) + n
  return sum
}

/** Two rollups of the same row added (whatever else the row holds is `a`'s). */
export const addRollups = <R extends DailyRollup>(a: R, b: R): R => ({
  ...a,
  answers: a.answers + b.answers,
  in_list: a.in_list + b.in_list,
  bold: a.bold + b.bold,
  linked: a.linked + b.linked,
  cited: a.cited + b.cited,
  with_competitor: a.with_competitor + b.with_competitor,
  order_sum: a.order_sum + b.order_sum,
  variants: addCounts(a.variants, b.variants),
  domains: addCounts(a.domains, b.domains)
})

/** Rows of some lists summed by `add` where their `id` is the same, in the order of their ids. */
export const mergeRowsBy = <R>(id: (row: R) => string, add: (a: R, b: R) => R) =>
(...lists: ReadonlyArray<ReadonlyArray<R>>): Array<R> => {
  const merged = new Map<string, R>()
  for (const list of lists) {
    for (const row of list) {
      const key = id(row)
      const held = merged.get(key)
      merged.set(key, held === undefined ? row : add(held, row))
    }
  }
  return [...merged].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row)
}

/** The rollups of some rows merged, in a fixed order (key, day, platform, prompt). */
export const mergeRollups: (...lists: ReadonlyArray<ReadonlyArray<DailyRollup>>) => Array<DailyRollup> = mergeRowsBy<DailyRollup>(rollupId, addRollups)

/** The daily rollups of some answers. */
export const rollUp = (answers: ReadonlyArray<AnalysedAnswer>): Array<DailyRollup> =>
  mergeRollups(answers.flatMap((answer) => {
    const withCompetitor = answer.extraction.tracked.some((t) => t.classification === "competitor") ? 1 : 0
    return answer.extraction.candidates.map((c): DailyRollup => ({
      key: c.key,
      day: answer.day,
      platform: answer.platform,
      prompt_id: answer.prompt_id,
      answers: 1,
      in_list: c.inList ? 1 : 0,
      bold: c.bold ? 1 : 0,
      linked: c.linked ? 1 : 0,
      cited: c.cited ? 1 : 0,
      with_competitor: withCompetitor,
      order_sum: c.order,
      variants: Object.fromEntries(c.spellings.map((s) => [s, 1])),
      domains: Object.fromEntries(c.domains.map((d) => [d, 1]))
    }))
  }))

/** One candidate's evidence over a window. */
export interface CandidateEvidence {
  readonly key: string
  /** Its most used spelling (ties: the shorter, then the first in code-point order); a domain when no text names it. */
  readonly name: string
  /** Spellings with their answer counts, most used first. */
  readonly variants: ReadonlyArray<{ readonly name: string; readonly answers: number }>
  readonly domains: ReadonlyArray<{ readonly domain: string; readonly answers: number }>
  readonly answers: number
  readonly prompts: ReadonlyArray<number>
  readonly platforms: ReadonlyArray<Platform>
  readonly in_list: number
  readonly bold: number
  readonly linked: number
  readonly cited: number
  readonly with_competitor: number
  readonly order_sum: number
  readonly first_seen_on: string
  readonly last_seen_on: string
}

const byCountThen = <A>(entries: ReadonlyArray<[A & string, number]>): Array<[A & string, number]> =>
  [...entries].sort(([a, n], [b, m]) => m - n || a.length - b.length || (a < b ? -1 : a > b ? 1 : 0))

/** The rollups summed per candidate (keys in order). */
export const evidenceOf = (rollups: ReadonlyArray<DailyRollup>): Array<CandidateEvidence> => {
  const byKey = new Map<string, Array<DailyRollup>>()
  for (const row of rollups) byKey.set(row.key, [...(byKey.get(row.key) ?? []), row])
  return [...byKey.keys()].sort().map((key) => {
    const rows = byKey.get(key)!
    const total = rows.reduce(addRollups)
    const variants = byCountThen(Object.entries(total.variants)).map(([name, answers]) => ({ name, answers }))
    const domains = byCountThen(Object.entries(total.domains)).map(([domain, answers]) => ({ domain, answers }))
    const days = rows.map((r) => r.day).sort()
    return {
      key,
      name: variants[0]?.name ?? domains[0]?.domain ?? key,
      variants,
      domains,
      answers: total.answers,
      prompts: [...new Set(rows.map((r) => r.prompt_id))].sort((a, b) => a - b),
      platforms: [...new Set(rows.map((r) => r.platform))].sort(),
      in_list: total.in_list,
      bold: total.bold,
      linked: total.linked,
      cited: total.cited,
      with_competitor: total.with_competitor,
      order_sum: total.order_sum,
      first_seen_on: days[0]!,
      last_seen_on: days.at(-1)!
    }
  })
}

/** A passage of an answer naming a candidate. */
export interface Example {
  readonly answer_id: number
  readonly platform: Platform
  readonly day: string
  /** Up to `SNIPPET_RADIUS` characters either side of the name, cut at spaces. */
  readonly snippet: string
  /** Where the name is in the snippet, `[start, end)`. */
  readonly highlight: { readonly start: number; readonly end: number }
  /** Where the snippet starts in the answer's NFC text. */
  readonly offset: number
}

export const SNIPPET_RADIUS = 80

/**
 * The latest `limit` answers naming the candidate in their text (by day, then answer id, newest first),
 * each with the passage around its first occurrence.
 */
export const examplesOf = (answers: ReadonlyArray<AnalysedAnswer>, key: string, limit = 3): Array<Example> =>
  answers
    .flatMap((answer) => {
      const first = answer.extraction.candidates.find((c) => c.key === key)?.occurrences[0]
      return first === undefined ? [] : [{ answer, first }]
    })
    .sort((a, b) => (a.answer.day < b.answer.day ? 1 : a.answer.day > b.answer.day ? -1 : b.answer.answer_id - a.answer.answer_id))
    .slice(0, limit)
    .map(({ answer, first }) => {
      const text = answer.text.normalize("NFC")
      let from = Math.max(0, first.start - SNIPPET_RADIUS)
      let to = Math.min(text.length, first.end + SNIPPET_RADIUS)
      // Whole words: cut at the first space inside the window (unless the window starts or ends the text).
      if (from > 0) from = Math.min(first.start, text.indexOf(" ", from) + 1 || first.start)
      if (to < text.length) to = Math.max(first.end, text.lastIndexOf(" ", to))
      return {
        answer_id: answer.answer_id,
        platform: answer.platform,
        day: answer.day,
        snippet: text.slice(from, to),
        highlight: { start: first.start - from, end: first.end - from },
        offset: from
      }
    })
