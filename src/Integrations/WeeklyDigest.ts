import type { BrandCounts } from "../Analytics/Analytics.ts"
import { percentage, percentageChange, significantChange, wilson, type ConfidenceInterval } from "../Analytics/Statistics.ts"
import { brandRowOf } from "../Analytics/BrandMeasures.ts"
import type { IsoWeek } from "./IsoWeek.ts"

/**
 * The content of the weekly digest (`digest.weekly`): the project's last full ISO week against the
 * week before, from counts, with the formulas of analytics. What it holds:
 *
 * - the brand table (visibility and share of voice with intervals, changes and significance), most
 *   visible first, and the changes among them that are significant;
 * - the prompts whose visibility of the own brand moved most (largest change in points first), with
 *   both weeks' counts: a move on 3 answers says less than one on 300, and the digest says which;
 * - the new top sources: in this week's top 10 by answers citing them, not in the previous week's;
 * - the runs' health: runs completed and failed, answers collected and failed.
 */

export const PROMPT_MOVERS = 5
export const TOP_SOURCES = 10

export interface DigestBrandInput {
  readonly brand: { readonly id: number; readonly name: string; readonly is_own: boolean }
  readonly w: BrandCounts
  readonly p: BrandCounts
}

export interface ProportionCounts {
  readonly count: number
  readonly total: number
}

export interface DigestPromptInput {
  readonly prompt: { readonly id: number; readonly text: string }
  /** Answers to the prompt mentioning the own brand, of the prompt's answers. */
  readonly w: ProportionCounts
  readonly p: ProportionCounts
}

export interface DigestSourceInput {
  readonly source: { readonly id: number; readonly domain: string }
  /** Analyzed answers citing the source, of all analyzed answers. */
  readonly w: ProportionCounts
  readonly p: ProportionCounts
}

export interface RunsHealth {
  readonly runs_completed: number
  readonly runs_failed: number
  readonly responses_collected: number
  readonly responses_failed: number
}

export interface DigestInput {
  readonly project: { readonly id: number; readonly name: string }
  readonly week: IsoWeek
  readonly previous: IsoWeek
  readonly brands: ReadonlyArray<DigestBrandInput>
  readonly prompts: ReadonlyArray<DigestPromptInput>
  readonly sources: ReadonlyArray<DigestSourceInput>
  readonly runs: RunsHealth
}

export interface DigestBrandRow {
  readonly brand: DigestBrandInput["brand"]
  readonly responses_count: number
  readonly mentioned_count: number
  readonly visibility: number | null
  readonly visibility_ci: ConfidenceInterval | null
  readonly visibility_change: number | null
  readonly visibility_change_significant: boolean
  readonly share_of_voice: number | null
  readonly share_of_voice_ci: ConfidenceInterval | null
  readonly share_of_voice_change: number | null
  readonly share_of_voice_change_significant: boolean
}

export interface DigestChange {
  readonly brand: DigestBrandInput["brand"]
  readonly metric: "visibility" | "share_of_voice"
  readonly value: number | null
  readonly change: number
}

export interface DigestPromptMover {
  readonly prompt: DigestPromptInput["prompt"]
  readonly visibility: number | null
  readonly previous_visibility: number | null
  readonly change: number
  readonly significant: boolean
  readonly mentioned_count: number
  readonly responses_count: number
  readonly previous_mentioned_count: number
  readonly previous_responses_count: number
}

export interface DigestSource {
  readonly source: DigestSourceInput["source"]
  readonly used_count: number
  readonly used_percentage: number | null
  readonly rank: number
}

export interface WeeklyDigest {
  readonly project: DigestInput["project"]
  readonly week: { readonly label: string; readonly start_date: string; readonly end_date: string }
  readonly previous_week: { readonly label: string; readonly start_date: string; readonly end_date: string }
  readonly brands: ReadonlyArray<DigestBrandRow>
  readonly significant_changes: ReadonlyArray<DigestChange>
  readonly prompt_movers: ReadonlyArray<DigestPromptMover>
  readonly new_top_sources: ReadonlyArray<DigestSource>
  readonly runs: RunsHealth
}

const weekOf = (week: IsoWeek) => ({ label: week.label, start_date: week.startDate, end_date: week.endDate })

/** Descending by a nullable number (nulls last), then by name, then id, so that the order is total. */
const byValueThenName = <T>(value: (item: T) => number | null, name: (item: T) => string, id: (item: T) => number) => (a: T, b: T): number => {
  const x = value(a)
  const y = value(b)
  if (x !== y) {
    if (x === null) return 1
    if (y === null) return -1
    return y - x
  }
  return name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : id(a) - id(b)
}

/** The top sources of one week, by answers citing them (ties by domain), at most TOP_SOURCES. */
const topSources = (sources: ReadonlyArray<DigestSourceInput>, side: "w" | "p"): ReadonlyArray<DigestSourceInput> =>
  sources
    .filter((source) => source[side].count > 0)
    .sort(byValueThenName((source) => source[side].count, (source) => source.source.domain, (source) => source.source.id))
    .slice(0, TOP_SOURCES)

export const weeklyDigest = (input: DigestInput): WeeklyDigest => {
  const brands = input.brands
    .map(({ brand, p, w }): DigestBrandRow => {
      const row = brandRowOf({ brand: brand as never, w, p, firstSeenOn: null, lastSeenOn: null })
      return {
        brand,
        responses_count: row.responses_count,
        mentioned_count: row.mentioned_count,
        visibility: row.visibility,
        visibility_ci: row.visibility_ci,
        visibility_change: row.visibility_change,
        visibility_change_significant: row.visibility_change_significant,
        share_of_voice: row.share_of_voice,
        share_of_voice_ci: row.share_of_voice_ci,
        share_of_voice_change: row.share_of_voice_change,
        share_of_voice_change_significant: row.share_of_voice_change_significant
      }
    })
    .sort(byValueThenName((row) => row.visibility, (row) => row.brand.name, (row) => row.brand.id))

  const significant_changes = brands.flatMap((row): Array<DigestChange> => [
    ...(row.visibility_change_significant && row.visibility_change !== null
      ? [{ brand: row.brand, metric: "visibility" as const, value: row.visibility, change: row.visibility_change }]
      : []),
    ...(row.share_of_voice_change_significant && row.share_of_voice_change !== null
      ? [{ brand: row.brand, metric: "share_of_voice" as const, value: row.share_of_voice, change: row.share_of_voice_change }]
      : [])
  ])

  const prompt_movers = input.prompts
    .flatMap(({ p, prompt, w }): Array<DigestPromptMover> => {
      const change = percentageChange(w.count, w.total, p.count, p.total)
      if (change === null || change === 0) return []
      return [{
        prompt,
        visibility: percentage(w.count, w.total),
        previous_visibility: percentage(p.count, p.total),
        change,
        significant: significantChange(w.count, w.total, p.count, p.total),
        mentioned_count: w.count,
        responses_count: w.total,
        previous_mentioned_count: p.count,
        previous_responses_count: p.total
      }]
    })
    .sort(byValueThenName((mover) => Math.abs(mover.change), (mover) => mover.prompt.text, (mover) => mover.prompt.id))
    .slice(0, PROMPT_MOVERS)

  const before = new Set(topSources(input.sources, "p").map((source) => source.source.id))
  const new_top_sources = topSources(input.sources, "w").flatMap((source, index): Array<DigestSource> =>
    before.has(source.source.id)
      ? []
      : [{ source: source.source, used_count: source.w.count, used_percentage: percentage(source.w.count, source.w.total), rank: index + 1 }]
  )

  return {
    project: input.project,
    week: weekOf(input.week),
    previous_week: weekOf(input.previous),
    brands,
    significant_changes,
    prompt_movers,
    new_top_sources,
    runs: input.runs
  }
}

/** The Wilson interval of a prompt mover's week, for renderers that show it. */
export const moverInterval = (mover: DigestPromptMover): ConfidenceInterval | null => wilson(mover.mentioned_count, mover.responses_count)
