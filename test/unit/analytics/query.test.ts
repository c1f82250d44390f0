import { Either } from "effect"
import { describe, expect, it } from "vitest"
import { sourceSortKeys, urlSortKeys } from "../../../src/Analytics/Analytics.ts"
import { finish, readListQuery, readSeriesQuery, readTopN, referencesOf } from "../../../src/Analytics/Query.ts"

/** The analytics query read from a query string (docs/api.md), without a server. */

const TODAY = "2026-03-15"
const params = (query: string) => new URLSearchParams(query)
const none = { monitors: [], tags: [], brands: [], segments: [] }

describe("analytics query", () => {
  it("decodes a full list query: defaults, upper-cased countries, repeated values once", () => {
    const draft = readListQuery(params("start_date=2026-03-01&end_date=2026-03-15&countries[]=us&countries=US&platforms=gemini"), sourceSortKeys, TODAY)
    expect(finish(draft, none)).toEqual(Either.right({
      range: { start: "2026-03-01", end: "2026-03-15" },
      filters: { platforms: ["gemini"], countries: ["US"], monitors: undefined, tags: undefined },
      sortBy: "used_percentage",
      sortOrder: "desc"
    }))
  })

  it("names array items by their position in the order sent, whatever their form", () => {
    const draft = readListQuery(
      params("start_date=2026-03-01&end_date=2026-03-02&platforms=gemini&platforms[]=bing&platforms[7]=claude&platforms[x]=nope&platforms[]="),
      urlSortKeys,
      TODAY
    )
    // `platforms[x]` is not an accepted form: it is ignored like any unknown parameter.
    expect(finish(draft, none)).toEqual(Either.left({
      "platforms.1": ["The selected platforms.1 is invalid. Allowed: chatgpt, perplexity, gemini, grok, copilot, claude, google_ai_mode, google_ai_overview."],
      "platforms.3": ["The selected platforms.3 is invalid. Allowed: chatgpt, perplexity, gemini, grok, copilot, claude, google_ai_mode, google_ai_overview."]
    }))
  })

  it("asks for the project's monitors and tags, and refuses the unknown ones by position", () => {
    const draft = readListQuery(params("start_date=2026-03-01&end_date=2026-03-02&monitors[]=4&monitors[]=5&monitors[]=4&tags=9"), sourceSortKeys, TODAY)
    expect(referencesOf(draft)).toEqual({ monitors: [4, 5], tags: [9], brands: [], segments: [] })
    expect(finish(draft, { ...none, monitors: [4], tags: [9] })).toEqual(Either.left({
      "monitors.1": ["The selected monitors.1 is invalid."]
    }))
    const ok = finish(draft, { ...none, monitors: [4, 5], tags: [9] })
    expect(Either.getOrThrow(ok).filters).toMatchObject({ monitors: [4, 5], tags: [9] })
  })

  it("lists the errors in field order, and a scalar given twice counts by its last value", () => {
    const draft = readListQuery(params("sort_order=asc&sort_order=sideways&tags=x&end_date=2026-03-16&start_date=2026-03-10&start_date=2026-02-29"), sourceSortKeys, TODAY)
    const errors = Either.getLeft(finish(draft, none))
    expect(errors._tag).toBe("Some")
    if (errors._tag === "Some") {
      expect(Object.keys(errors.value)).toEqual(["start_date", "end_date", "tags.0", "sort_order"])
      expect(errors.value.start_date).toEqual(["The start date field must be a valid date in the format YYYY-MM-DD."])
      expect(errors.value.end_date).toEqual(["The end date field must be a date before or equal to today."])
    }
  })

  it("accepts today as the end date, and a window of exactly 1000 buckets", () => {
    expect(Either.isRight(finish(readListQuery(params(`start_date=${TODAY}&end_date=${TODAY}`), sourceSortKeys, TODAY), none))).toBe(true)
    const thousand = readSeriesQuery(params(`start_date=2023-06-20&end_date=${TODAY}&interval=day`), TODAY)
    expect(finish(thousand, none)).toMatchObject(Either.right({ interval: "day", topN: 20 }))
    const more = readSeriesQuery(params(`start_date=2023-06-19&end_date=${TODAY}&interval=day`), TODAY)
    expect(finish(more, none)).toEqual(Either.left({ interval: ["The interval must not divide the dates into more than 1000 buckets."] }))
    // No bucket count on dates that are themselves invalid.
    const bad = readSeriesQuery(params(`start_date=1900-01-01&end_date=2026-04-01&interval=day`), TODAY)
    expect(finish(bad, none)).toEqual(Either.left({ end_date: ["The end date field must be a date before or equal to today."] }))
  })

  it("clamps top_n to 1..50, and takes 20 for anything that is not an integer", () => {
    expect([readTopN(undefined), readTopN(""), readTopN("7"), readTopN("0"), readTopN("-3"), readTopN("51"), readTopN("1.5"), readTopN("ten")]).toEqual([
      20,
      20,
      7,
      1,
      1,
      50,
      20,
      20
    ])
  })
})
