import type { SqlClient, Statement } from "@effect/sql"
import { type DateRange, type Filters, periodsOf } from "../Analytics/Analytics.ts"
import type { ResponseRow } from "../Memory/Store.ts"

/**
 * Which responses a list shows, and with them which citations and brand mentions (docs/api.md,
 * "Lists of responses, citations and mentions"): the window on `collected_at` (UTC days, both
 * inclusive) and the filters of the analytics, with their meaning (a tag: the prompt carries it now).
 * Unlike the analytics, every status counts: `GET /responses?status=` narrows that.
 */
export interface ResponseFilters extends Filters {
  readonly range?: DateRange | undefined
}

/** The conditions on the responses of alias `r` (a `responses` row) that keep the ones `filters` names. */
export const responseConditions = (sql: SqlClient.SqlClient, r: Statement.Fragment, filters: ResponseFilters): Array<Statement.Fragment> => {
  const conditions: Array<Statement.Fragment> = []
  if (filters.range !== undefined) {
    const { windowEnd, windowStart } = periodsOf(filters.range)
    conditions.push(sql`${r}.collected_at >= ${new Date(windowStart)} AND ${r}.collected_at < ${new Date(windowEnd)}`)
  }
  if (filters.platforms !== undefined) conditions.push(sql`${r}.platform IN ${sql.in(filters.platforms)}`)
  if (filters.countries !== undefined) conditions.push(sql`${r}.country IN ${sql.in(filters.countries)}`)
  if (filters.monitors !== undefined) conditions.push(sql`${r}.monitor_id IN ${sql.in(filters.monitors)}`)
  if (filters.tags !== undefined) {
    conditions.push(sql`${r}.prompt_id IN (SELECT pt.prompt_id FROM prompt_tags pt WHERE pt.tag_id IN ${sql.in(filters.tags)})`)
  }
  return conditions
}

/** The same, for a response of the in-memory store, given the tags its prompt carries now. */
export const matchesFilters = (filters: ResponseFilters, promptTags: (promptId: number) => ReadonlySet<number>) =>
(response: ResponseRow): boolean => {
  if (filters.range !== undefined) {
    const { windowEnd, windowStart } = periodsOf(filters.range)
    const at = response.collected_at.getTime()
    if (at < windowStart || at >= windowEnd) return false
  }
  if (filters.platforms !== undefined && !filters.platforms.includes(response.platform)) return false
  if (filters.countries !== undefined && !filters.countries.includes(response.country)) return false
  if (filters.monitors !== undefined && !filters.monitors.includes(response.monitor_id)) return false
  if (filters.tags !== undefined) {
    const tags = promptTags(response.prompt_id)
    if (!filters.tags.some((tag) => tags.has(tag))) return false
  }
  return true
}

/**
 * The words of `GET /responses?q=`: the text split on white space, each once. A response matches
 * when its text contains every word, in any case (docs/api.md, "Searching answers by text").
 */
export const searchWords = (q: string): ReadonlyArray<string> => [...new Set(q.split(/\s+/u).filter((word) => word.length > 0))]

/**
 * Lower case as PostgreSQL's `lower()` makes it: each character on its own, by its one-character
 * mapping (`İ` is `i`, a final `Σ` is `σ`), where JavaScript's `toLowerCase` looks at the context.
 */
const lowerEachCharacter = (text: string): string =>
  Array.from(text, (character) => String.fromCodePoint(character.toLowerCase().codePointAt(0)!)).join("")

/** Whether `text` contains every word, in any case: the in-memory store's `q`, as the SQL one does it. */
export const containsWords = (text: string, words: ReadonlyArray<string>): boolean => {
  if (words.length === 0) return true
  const lowered = lowerEachCharacter(text)
  return words.every((word) => lowered.includes(lowerEachCharacter(word)))
}

