import { Effect, Layer } from "effect"
import type { Page } from "../Domain/Page.ts"
import { type BrandMentionRow, type BrandRow as BrandTableRow, type CitationRow, MemoryStore, type MemoryTables, type ResponseRow } from "../Memory/Store.ts"
import {
  Analytics,
  type BrandCounts,
  type BrandListQuery,
  type BrandRef,
  type BrandSelection,
  type BrandSeriesQuery,
  bucketsOf,
  bucketStart,
  compareText,
  type Filters,
  formatDate,
  hundredfold,
  type ListQuery,
  type Measures,
  periodsOf,
  type PromptListQuery,
  type SeriesQuery,
  type SourceUrlSeries
} from "./Analytics.ts"
import { brandRowOf, compareBrandRows, comparePromptRows, compareSeriesBrands, pointOf, promptRowOf } from "./BrandMeasures.ts"

/**
 * The reference implementation of docs/api.md, over the in-memory tables: plain loops written
 * from the formulas, one step per sentence of the rules, with no regard for speed.
 */

/** One thing rows are made of: a source (by `citation.source_id`) or an exact URL (by `source_url_id`). */
interface Dimension {
  readonly keyOf: (citation: CitationRow) => number
  /** The name ties are broken by: the domain or the URL. */
  readonly nameOf: (db: MemoryTables, id: number) => string
}

const bySource: Dimension = { keyOf: (citation) => citation.source_id, nameOf: (db, id) => db.table("sources").get(id)!.domain }
const byUrl: Dimension = { keyOf: (citation) => citation.source_url_id, nameOf: (db, id) => db.table("source_urls").get(id)!.url }

/** Whether a response counts in the analytics: analyzed, and an answer (migration 0012). */
const isCounted = (response: ResponseRow) => response.status === "analyzed" && response.answer_state === "answered"

/** R(X): the analyzed responses of the project collected in [from, to) that pass every given filter. */
const responsesIn = (db: MemoryTables, projectId: number, filters: Filters, from: number, to: number): Array<ResponseRow> => {
  const result: Array<ResponseRow> = []
  for (const response of db.table("responses").values()) {
    if (response.project_id !== projectId) continue
    // Answers only: a refusal, an empty answer or no AI answer is no analyzed response (docs/metrics.md).
    if (!isCounted(response)) continue
    const at = response.collected_at.getTime()
    if (at < from || at >= to) continue
    if (filters.platforms !== undefined && !filters.platforms.includes(response.platform)) continue
    if (filters.countries !== undefined && !filters.countries.includes(response.country.toUpperCase())) continue
    if (filters.monitors !== undefined && !filters.monitors.includes(response.monitor_id)) continue
    if (filters.tags !== undefined && !filters.tags.some((tag) => db.table("prompt_tags").has(`${response.prompt_id}:${tag}`))) continue
    result.push(response)
  }
  return result
}

/** Rows of a response's (its citations, its mentions) by response, read once per request. */
const byResponse = <Row extends { readonly response_id: number }>(rows: Iterable<Row>) => {
  const index = new Map<number, Array<Row>>()
  for (const row of rows) {
    const of = index.get(row.response_id)
    if (of === undefined) index.set(row.response_id, [row])
    else of.push(row)
  }
  return (response: ResponseRow): ReadonlyArray<Row> => index.get(response.id) ?? []
}

/** The citations of each response, read once per request. */
const citationIndex = (db: MemoryTables) => byResponse<CitationRow>(db.table("citations").values())

type CitationsOf = ReturnType<typeof citationIndex>

/** Per key: responses of R citing it at least once (`used`), and its citations in R (`cited`). */
const countIn = (citationsOf: CitationsOf, responses: ReadonlyArray<ResponseRow>, dimension: Dimension) => {
  const counts = new Map<number, { used: number; cited: number }>()
  for (const response of responses) {
    const seen = new Set<number>()
    for (const citation of citationsOf(response)) {
      const key = dimension.keyOf(citation)
      const entry = counts.get(key) ?? { used: 0, cited: 0 }
      entry.cited += 1
      if (!seen.has(key)) entry.used += 1
      seen.add(key)
      counts.set(key, entry)
    }
  }
  return counts
}

/** The earliest and latest UTC date of any analyzed response of the project citing the key. */
const lifetimeOf = (db: MemoryTables, citationsOf: CitationsOf, projectId: number, dimension: Dimension, key: number) => {
  let first = Infinity
  let last = -Infinity
  for (const response of db.table("responses").values()) {
    if (response.project_id !== projectId || !isCounted(response)) continue
    if (!citationsOf(response).some((citation) => dimension.keyOf(citation) === key)) continue
    first = Math.min(first, response.collected_at.getTime())
    last = Math.max(last, response.collected_at.getTime())
  }
  return { first_seen_on: formatDate(first), last_seen_on: formatDate(last) }
}

const rowsOf = <SortBy extends string, Row>(
  db: MemoryTables,
  projectId: number,
  query: ListQuery<SortBy>,
  dimension: Dimension,
  nameKey: SortBy,
  view: (id: number, measures: Measures) => Row
): Page<Row> => {
  const { previousStart, windowEnd, windowStart } = periodsOf(query.range)
  const citationsOf = citationIndex(db)
  const inWindow = responsesIn(db, projectId, query.filters, windowStart, windowEnd)
  const inPrevious = responsesIn(db, projectId, query.filters, previousStart, windowStart)
  const countsW = countIn(citationsOf, inWindow, dimension)
  const countsP = countIn(citationsOf, inPrevious, dimension)

  const rows: Array<{ id: number; name: string; measures: Measures }> = []
  for (const [id, w] of countsW) {
    if (w.used < 1) continue
    const p = countsP.get(id) ?? { used: 0, cited: 0 }
    const percentageW = hundredfold(w.used, inWindow.length)
    const percentageP = hundredfold(p.used, inPrevious.length)
    // Averages in hundredths: round2(x) = round(100x) / 100.
    const averageW = hundredfold(w.cited, inWindow.length)
    const averageP = hundredfold(p.cited, inPrevious.length)
    rows.push({
      id,
      name: dimension.nameOf(db, id),
      measures: {
        used_count: w.used,
        used_count_change: w.used - p.used,
        used_percentage: percentageW,
        used_percentage_change: percentageW - percentageP,
        average_citations: averageW / 100,
        // The shown averages' difference, which is already a whole number of hundredths.
        average_citations_change: (averageW - averageP) / 100,
        ...lifetimeOf(db, citationsOf, projectId, dimension, id)
      }
    })
  }

  const value = (row: (typeof rows)[number]): number | string =>
    query.sortBy === nameKey ? row.name : row.measures[query.sortBy as unknown as keyof Measures]
  const direction = query.sortOrder === "asc" ? 1 : -1
  rows.sort((a, b) => {
    const x = value(a)
    const y = value(b)
    const primary = typeof x === "string" ? compareText(x, y as string) : x - (y as number)
    if (primary !== 0) return Math.sign(primary) * direction
    return compareText(a.name, b.name) || a.id - b.id
  })

  return {
    rows: rows.slice(query.window.offset, query.window.offset + query.window.limit).map((row) => view(row.id, row.measures)),
    total: rows.length
  }
}

// ---------------------------------------------------------------------------
// Brand analytics
// ---------------------------------------------------------------------------

/** The counted brands of the project: not classified `ignored` (now). */
const countedBrandsOf = (db: MemoryTables, projectId: number): Array<BrandTableRow> =>
  [...db.table("brands").values()].filter((brand) => brand.project_id === projectId && brand.classification !== "ignored")

const brandRef = (db: MemoryTables, projectId: number, brand: BrandTableRow): BrandRef => ({
  id: brand.id,
  name: brand.name,
  classification: brand.classification,
  is_own: db.table("projects").get(projectId)?.brand_id === brand.id
})

/** Whether a brand gets a row or a series: in `brands` when given, and in one of `segments` when given. */
const isSelected = (db: MemoryTables, selection: BrandSelection, brandId: number): boolean =>
  (selection.brands === undefined || selection.brands.includes(brandId)) &&
  (selection.segments === undefined || selection.segments.some((segment) => db.table("brand_segments").has(`${brandId}:${segment}`)))

/** The mentions of each response, read once per request. */
const mentionIndex = (db: MemoryTables) => byResponse<BrandMentionRow>(db.table("brand_mentions").values())

type MentionsOf = ReturnType<typeof mentionIndex>

/** A brand's counts over a set of responses R, the counted brands' mentions in R included. */
const brandCountsIn = (
  mentionsOf: MentionsOf,
  counted: ReadonlySet<number>,
  responses: ReadonlyArray<ResponseRow>,
  brandId: number
): BrandCounts => {
  let totalMentions = 0
  let mentioned = 0
  let positionSum = 0
  let sentimentSum = 0
  for (const response of responses) {
    for (const mention of mentionsOf(response)) {
      if (counted.has(mention.brand_id)) totalMentions += 1
      if (mention.brand_id !== brandId) continue
      mentioned += 1
      positionSum += mention.position
      sentimentSum += mention.sentiment_score
    }
  }
  return { responses: responses.length, totalMentions, mentioned, positionSum, sentimentSum }
}

/** The earliest and latest UTC date of the brand's mentions on analyzed responses of the project; null when none. */
const brandLifetimeOf = (db: MemoryTables, mentionsOf: MentionsOf, projectId: number, brandId: number) => {
  let first = Infinity
  let last = -Infinity
  for (const response of db.table("responses").values()) {
    if (response.project_id !== projectId || !isCounted(response)) continue
    if (!mentionsOf(response).some((mention) => mention.brand_id === brandId)) continue
    first = Math.min(first, response.collected_at.getTime())
    last = Math.max(last, response.collected_at.getTime())
  }
  return first === Infinity ? { firstSeenOn: null, lastSeenOn: null } : { firstSeenOn: formatDate(first), lastSeenOn: formatDate(last) }
}

const brandsOf = (db: MemoryTables, projectId: number, query: BrandListQuery) => {
  const { previousStart, windowEnd, windowStart } = periodsOf(query.range)
  const mentionsOf = mentionIndex(db)
  const brands = countedBrandsOf(db, projectId)
  const counted = new Set(brands.map((brand) => brand.id))
  const inWindow = responsesIn(db, projectId, query.filters, windowStart, windowEnd)
  const inPrevious = responsesIn(db, projectId, query.filters, previousStart, windowStart)
  const rows = brands
    .filter((brand) => isSelected(db, query.selection, brand.id))
    .map((brand) =>
      brandRowOf({
        brand: brandRef(db, projectId, brand),
        w: brandCountsIn(mentionsOf, counted, inWindow, brand.id),
        p: brandCountsIn(mentionsOf, counted, inPrevious, brand.id),
        ...brandLifetimeOf(db, mentionsOf, projectId, brand.id)
      })
    )
    .sort(compareBrandRows(query.sortBy, query.sortOrder))
  return { rows: rows.slice(query.window.offset, query.window.offset + query.window.limit), total: rows.length }
}

const brandSeriesOf = (db: MemoryTables, projectId: number, query: BrandSeriesQuery) => {
  const { windowEnd, windowStart } = periodsOf(query.range)
  const mentionsOf = mentionIndex(db)
  const brands = countedBrandsOf(db, projectId)
  const counted = new Set(brands.map((brand) => brand.id))
  const responses = responsesIn(db, projectId, query.filters, windowStart, windowEnd)
  const starts = bucketsOf(query.interval, query.range)
  const ranked = brands
    .filter((brand) => isSelected(db, query.selection, brand.id))
    .map((brand) => ({ brand: brandRef(db, projectId, brand), mentioned: brandCountsIn(mentionsOf, counted, responses, brand.id).mentioned }))
    .sort(compareSeriesBrands)
    .slice(0, query.topN)
  return {
    interval: query.interval,
    metric: query.metric,
    series: ranked.map(({ brand }) => ({
      brand,
      data: starts.map((start) => {
        const inBucket = responses.filter((response) => bucketStart(query.interval, response.collected_at.getTime()) === start)
        return pointOf(query.metric, new Date(start), brandCountsIn(mentionsOf, counted, inBucket, brand.id))
      })
    }))
  }
}

const promptsOf = (db: MemoryTables, projectId: number, query: PromptListQuery) => {
  const { windowEnd, windowStart } = periodsOf(query.range)
  const mentionsOf = mentionIndex(db)
  const brands = countedBrandsOf(db, projectId)
  const counted = new Set(brands.map((brand) => brand.id))
  const ownId = db.table("projects").get(projectId)?.brand_id ?? null
  const own = ownId !== null && counted.has(ownId) ? ownId : null
  const responses = responsesIn(db, projectId, query.filters, windowStart, windowEnd)
  const byPrompt = new Map<number, Array<ResponseRow>>()
  for (const response of responses) byPrompt.set(response.prompt_id, [...(byPrompt.get(response.prompt_id) ?? []), response])

  const rows = [...byPrompt].map(([promptId, answers]) => {
    const prompt = db.table("prompts").get(promptId)!
    const perBrand = brands.map((brand) => ({ brand, counts: brandCountsIn(mentionsOf, counted, answers, brand.id) }))
    const ownCounts = perBrand.find((entry) => entry.brand.id === own)?.counts
    const top = perBrand
      .filter((entry) => entry.brand.id !== own && entry.counts.mentioned > 0)
      .map((entry) => ({ brand: brandRef(db, projectId, entry.brand), mentioned: entry.counts.mentioned }))
      .sort(compareSeriesBrands)[0]
    return promptRowOf({
      prompt: { id: prompt.id, text: prompt.text, monitor_id: prompt.monitor_id },
      responses: answers.length,
      own: ownCounts === undefined ? null : { mentioned: ownCounts.mentioned, positionSum: ownCounts.positionSum },
      top: top ?? null,
      brandsMentioned: perBrand.filter((entry) => entry.counts.mentioned > 0).length
    })
  }).sort(comparePromptRows(query.sortBy, query.sortOrder))
  return { rows: rows.slice(query.window.offset, query.window.offset + query.window.limit), total: rows.length }
}

export const layerMemory = Layer.effect(
  Analytics,
  Effect.map(MemoryStore, (db) =>
    Analytics.of({
      sources: (projectId, query) =>
        Effect.sync(() =>
          rowsOf(db, projectId, query, bySource, "domain", (id, measures) => ({
            source: { id, domain: db.table("sources").get(id)!.domain },
            ...measures
          }))
        ),
      sourceUrls: (projectId, query) =>
        Effect.sync(() =>
          rowsOf(db, projectId, query, byUrl, "url", (id, measures) => {
            const url = db.table("source_urls").get(id)!
            return { source_url: { id, source_id: url.source_id, url: url.url }, ...measures }
          })
        ),
      sourceUrlUsage: (projectId, query: SeriesQuery) =>
        Effect.sync(() => {
          const { windowEnd, windowStart } = periodsOf(query.range)
          const responses = responsesIn(db, projectId, query.filters, windowStart, windowEnd)
          const starts = bucketsOf(query.interval, query.range)
          const citationsOf = citationIndex(db)

          // Rank the URLs cited in R(W) by their citations in R(W).
          const cited = new Map<number, number>()
          for (const response of responses) {
            for (const citation of citationsOf(response)) {
              cited.set(citation.source_url_id, (cited.get(citation.source_url_id) ?? 0) + 1)
            }
          }
          const ranked = [...cited.entries()]
            .map(([id, citations]) => ({ url: db.table("source_urls").get(id)!, citations }))
            .sort((a, b) => b.citations - a.citations || compareText(a.url.url, b.url.url) || a.url.id - b.url.id)
            .slice(0, query.topN)

          const series: Array<SourceUrlSeries> = ranked.map(({ url }) => ({
            source_url: { id: url.id, source_id: url.source_id, url: url.url },
            data: starts.map((start) => {
              const inBucket = responses.filter((response) => bucketStart(query.interval, response.collected_at.getTime()) === start)
              const citing = inBucket.filter((response) => citationsOf(response).some((citation) => citation.source_url_id === url.id))
              return { timestamp: new Date(start), value: hundredfold(citing.length, inBucket.length) }
            })
          }))
          return { interval: query.interval, series }
        }),
      brands: (projectId, query) => Effect.sync(() => brandsOf(db, projectId, query)),
      brandSeries: (projectId, query) => Effect.sync(() => brandSeriesOf(db, projectId, query)),
      prompts: (projectId, query) => Effect.sync(() => promptsOf(db, projectId, query)),
      knownReferences: (projectId, references) =>
        Effect.sync(() => ({
          monitors: references.monitors.filter((id) => db.table("monitors").get(id)?.project_id === projectId),
          tags: references.tags.filter((id) => db.table("tags").get(id)?.project_id === projectId),
          brands: references.brands.filter((id) => db.table("brands").get(id)?.project_id === projectId),
          segments: references.segments.filter((id) => db.table("segments").get(id)?.project_id === projectId)
        }))
    })
  )
)
