import {
  type BrandCounts,
  type BrandMeasureKey,
  type BrandMetric,
  type BrandRow,
  type BrandRowCounts,
  type BrandSeriesPoint,
  type BrandSortBy,
  compareText,
  type PromptRow,
  type PromptRowCounts,
  type PromptSortBy,
  type SortOrder
} from "./Analytics.ts"
import { mean, meanChange, percentage, percentageChange, significantChange, wilson } from "./Statistics.ts"

/**
 * The formulas of brand analytics (docs/api.md, "Brand analytics"), from the counts a row is made of
 * to the row, and the orders of the lists. Both implementations count (the in-memory one from the raw
 * rows, the SQL one from the rollups) and hand their counts to these functions, so that every
 * percentage, interval and flag is computed once, the same way (Statistics.ts).
 */

/**
 * A brand's row: its measures over W, their changes against P, intervals and significance, and the
 * counts over P the changes and flags are made of.
 */
export const brandRowOf = ({ brand, firstSeenOn, lastSeenOn, p, w }: BrandRowCounts): BrandRow => ({
  brand,
  responses_count: w.responses,
  mentioned_count: w.mentioned,
  visibility: percentage(w.mentioned, w.responses),
  visibility_ci: wilson(w.mentioned, w.responses),
  visibility_change: percentageChange(w.mentioned, w.responses, p.mentioned, p.responses),
  visibility_change_significant: significantChange(w.mentioned, w.responses, p.mentioned, p.responses),
  total_mentions: w.totalMentions,
  share_of_voice: percentage(w.mentioned, w.totalMentions),
  share_of_voice_ci: wilson(w.mentioned, w.totalMentions),
  share_of_voice_change: percentageChange(w.mentioned, w.totalMentions, p.mentioned, p.totalMentions),
  share_of_voice_change_significant: significantChange(w.mentioned, w.totalMentions, p.mentioned, p.totalMentions),
  average_position: mean(w.positionSum, w.mentioned),
  average_position_change: meanChange(w.positionSum, w.mentioned, p.positionSum, p.mentioned),
  average_sentiment: mean(w.sentimentSum, w.mentioned),
  average_sentiment_change: meanChange(w.sentimentSum, w.mentioned, p.sentimentSum, p.mentioned),
  first_seen_on: firstSeenOn,
  last_seen_on: lastSeenOn,
  previous_responses_count: p.responses,
  previous_mentioned_count: p.mentioned,
  previous_total_mentions: p.totalMentions
})

/** A point of a brand's series: the metric over one bucket's counts, with what it is made of. */
export const pointOf = (metric: BrandMetric, timestamp: Date, counts: BrandCounts): BrandSeriesPoint => {
  switch (metric) {
    case "visibility":
      return { timestamp, value: percentage(counts.mentioned, counts.responses), count: counts.mentioned, total: counts.responses }
    case "share_of_voice":
      return { timestamp, value: percentage(counts.mentioned, counts.totalMentions), count: counts.mentioned, total: counts.totalMentions }
    case "average_position":
      return { timestamp, value: mean(counts.positionSum, counts.mentioned), count: counts.mentioned, total: null }
    case "average_sentiment":
      return { timestamp, value: mean(counts.sentimentSum, counts.mentioned), count: counts.mentioned, total: null }
  }
}

/** A prompt's row. Every row has at least one response, so its percentages are never null. */
export const promptRowOf = ({ brandsMentioned, own, prompt, responses, top }: PromptRowCounts): PromptRow => ({
  prompt,
  responses_count: responses,
  own: own === null ? null : {
    mentioned_count: own.mentioned,
    visibility: percentage(own.mentioned, responses),
    visibility_ci: wilson(own.mentioned, responses),
    average_position: mean(own.positionSum, own.mentioned)
  },
  top_competitor: top === null ? null : {
    brand: top.brand,
    mentioned_count: top.mentioned,
    visibility: percentage(top.mentioned, responses)
  },
  brands_mentioned: brandsMentioned
})

/**
 * Two values of a sort key in the requested direction, a null after any number whatever the
 * direction; 0 when they tie.
 */
const compareNullable = (x: number | null, y: number | null, direction: 1 | -1): number =>
  x === null || y === null ? (x === null ? 1 : 0) - (y === null ? 1 : 0) : Math.sign(x - y) * direction

/**
 * The order of a brand list: the key's values as shown (rounded), nulls last whatever the direction,
 * ties by name (code point order) then id.
 */
export const compareBrandRows = (sortBy: BrandSortBy, sortOrder: SortOrder) => (a: BrandRow, b: BrandRow): number => {
  const direction = sortOrder === "asc" ? 1 : -1
  const primary = sortBy === "name"
    ? compareText(a.brand.name, b.brand.name) * direction
    : compareNullable(a[sortBy as BrandMeasureKey], b[sortBy as BrandMeasureKey], direction)
  return primary || compareText(a.brand.name, b.brand.name) || a.brand.id - b.brand.id
}

/** The value a prompt list sorts by; `own_visibility` is null without an own brand. */
const promptKey = (row: PromptRow, sortBy: Exclude<PromptSortBy, "text">): number | null =>
  sortBy === "own_visibility" ? row.own?.visibility ?? null : row[sortBy]

/** The order of a prompt list: the key's values as shown, nulls last whatever the direction, ties by prompt id. */
export const comparePromptRows = (sortBy: PromptSortBy, sortOrder: SortOrder) => (a: PromptRow, b: PromptRow): number => {
  const direction = sortOrder === "asc" ? 1 : -1
  const primary = sortBy === "text"
    ? compareText(a.prompt.text, b.prompt.text) * direction
    : compareNullable(promptKey(a, sortBy), promptKey(b, sortBy), direction)
  return primary || a.prompt.id - b.prompt.id
}

/**
 * The order of a time series' brands: by responses mentioning them in R(W), most first, ties by name
 * (code point order) then id.
 */
export const compareSeriesBrands = (
  a: { readonly brand: { readonly id: number; readonly name: string }; readonly mentioned: number },
  b: { readonly brand: { readonly id: number; readonly name: string }; readonly mentioned: number }
): number => b.mentioned - a.mentioned || compareText(a.brand.name, b.brand.name) || a.brand.id - b.brand.id
