import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type AnalyticsServer, type DatasetIds, type DatasetSpec, startAnalyticsServer } from "../support/AnalyticsData.ts"
import { backends } from "../support/TestServer.ts"

/**
 * The brand analytics endpoints over HTTP (docs/api.md, "Brand analytics"): envelopes and row shapes
 * in the documented field order, the query's forms and its 422s, project scoping, and classification
 * and own brand read at request time. The numbers themselves are worked out in
 * test/unit/analytics/brand-examples.test.ts.
 */

const DAY = 86_400_000
/** A calendar date `offset` days from today (UTC). */
const day = (offset: number) => new Date(Date.now() + offset * DAY).toISOString().slice(0, 10)
const at = (offset: number, time = "00:00:00.000") => `${day(offset)}T${time}Z`

const INVALID = "The given data was invalid."
const BRAND_ROW_KEYS = [
  "brand",
  "responses_count",
  "mentioned_count",
  "visibility",
  "visibility_ci",
  "visibility_change",
  "visibility_change_significant",
  "total_mentions",
  "share_of_voice",
  "share_of_voice_ci",
  "share_of_voice_change",
  "share_of_voice_change_significant",
  "average_position",
  "average_position_change",
  "average_sentiment",
  "average_sentiment_change",
  "first_seen_on",
  "last_seen_on",
  "previous_responses_count",
  "previous_mentioned_count",
  "previous_total_mentions"
]

/**
 * W = today-3 .. today (4 days), P = today-7 .. today-4. Brands: Acme (own, segment 0), Globex
 * (segment 1), Hidden (ignored). R(W): w1 w2 w3 (Acme in w1 w2, Globex in w1 w3, Hidden in w3); R(P): p1
 * (Globex).
 */
const dataset: DatasetSpec = {
  monitors: [{ country: "US", platforms: ["chatgpt", "gemini"] }],
  tags: 1,
  prompts: [{ monitor: 0, tags: [0] }, { monitor: 0, tags: [] }],
  sources: [],
  urls: [],
  segments: 2,
  brands: [{ name: "Acme", segments: [0] }, { name: "Globex", segments: [1] }, { name: "Hidden", classification: "ignored" }],
  ownBrand: 0,
  responses: [
    {
      prompt: 0,
      platform: "chatgpt",
      status: "analyzed",
      collected_at: at(-3),
      citations: [],
      mentions: [{ brand: 0, position: 1, sentiment: 70 }, { brand: 1, position: 2, sentiment: 50 }]
    }, // w1
    { prompt: 0, platform: "gemini", status: "analyzed", collected_at: at(-2, "12:00:00.000"), citations: [], mentions: [{ brand: 0, position: 2, sentiment: 60 }] }, // w2
    {
      prompt: 1,
      platform: "chatgpt",
      status: "analyzed",
      collected_at: at(0),
      citations: [],
      mentions: [{ brand: 1, position: 1, sentiment: 40 }, { brand: 2, position: 2, sentiment: 50 }]
    }, // w3
    { prompt: 1, platform: "chatgpt", status: "analyzed", collected_at: at(-6), citations: [], mentions: [{ brand: 1, position: 1, sentiment: 30 }] } // p1
  ]
}

/** Another project of the same organization. */
const neighbour: DatasetSpec = {
  monitors: [{ country: "US" }],
  tags: 1,
  prompts: [{ monitor: 0, tags: [0] }],
  sources: [],
  urls: [],
  segments: 1,
  brands: [{ name: "Acme", segments: [0] }],
  responses: [{ prompt: 0, platform: "chatgpt", status: "analyzed", collected_at: at(-1), citations: [], mentions: [{ brand: 0, position: 1, sentiment: 90 }] }]
}

describe.each(backends)("brand analytics (%s)", (backend) => {
  let server: AnalyticsServer
  let key: string
  let ids: DatasetIds
  let other: DatasetIds
  beforeAll(async () => {
    server = await startAnalyticsServer(backend)
    const organization = await server.createOrganization()
    key = await server.createKey(organization, ["*"])
    other = await server.load(organization, neighbour)
    ids = await server.load(organization, dataset)
  })
  afterAll(() => server.close())

  const W = () => `start_date=${day(-3)}&end_date=${day(0)}`
  const get = (path: string, project: number = ids.project) => server.request("GET", `/api/v1/analytics/${path}`, { key, project })
  const ok = async (path: string) => {
    const reply = await get(path)
    expect(reply.status, reply.text).toBe(200)
    return reply.body
  }
  const invalid = async (path: string, errors: Record<string, Array<string>>) => {
    const reply = await get(path)
    expect(reply.status, reply.text).toBe(422)
    expect(reply.body).toEqual({ message: INVALID, errors })
  }
  const brand = (index: number, isOwn = index === 0) => ({
    id: ids.brands[index],
    name: dataset.brands![index]!.name,
    classification: dataset.brands![index]!.classification ?? "competitor",
    is_own: isOwn
  })

  it("lists the counted brands in the pagination envelope, every field in the documented order", async () => {
    const body = await ok(`brands?${W()}`)
    expect(Object.keys(body)).toEqual(["data", "links", "meta"])
    // Acme: 2 of 3 responses (66.67 %), 2 of the 4 counted mentions (Hidden's is not counted); P holds p1
    // alone, which names Globex only.
    expect(body.data[0]).toEqual({
      brand: brand(0),
      responses_count: 3,
      mentioned_count: 2,
      visibility: 66.67,
      visibility_ci: { low: 20.77, high: 93.85 },
      visibility_change: 66.67,
      visibility_change_significant: false,
      total_mentions: 4,
      share_of_voice: 50,
      share_of_voice_ci: { low: 15, high: 85 },
      share_of_voice_change: 50,
      share_of_voice_change_significant: false,
      average_position: 1.5,
      average_position_change: null,
      average_sentiment: 65,
      average_sentiment_change: null,
      first_seen_on: day(-3),
      last_seen_on: day(-2),
      previous_responses_count: 1,
      previous_mentioned_count: 0,
      previous_total_mentions: 1
    })
    for (const row of body.data) {
      expect(Object.keys(row)).toEqual(BRAND_ROW_KEYS)
      expect(Object.keys(row.brand)).toEqual(["id", "name", "classification", "is_own"])
    }
    // Globex: w1 w3, 66.67 % against 1 of 1 in P: −33.33; the ignored brand has no row.
    expect(body.data.map((row: any) => [row.brand.name, row.visibility, row.visibility_change])).toEqual([["Acme", 66.67, 66.67], ["Globex", 66.67, -33.33]])
    expect(body.data[1]).toMatchObject({ previous_responses_count: 1, previous_mentioned_count: 1, previous_total_mentions: 1 })
    // The filters apply to P as to W: p1 is a chatgpt answer, so P holds nothing for gemini; 0, never null.
    const gemini = await ok(`brands?${W()}&platforms[]=gemini`)
    expect(gemini.data.map((row: any) => [row.brand.name, row.responses_count, row.previous_responses_count, row.previous_mentioned_count, row.previous_total_mentions]))
      .toEqual([["Acme", 1, 0, 0, 0], ["Globex", 1, 0, 0, 0]])
    expect(body.meta).toMatchObject({ current_page: 1, total: 2, per_page: 25 })
    expect(body.meta.path).toMatch(/\/api\/v1\/analytics\/brands$/)
  })

  it("sorts, pages and keeps the query in the links", async () => {
    const body = await ok(`brands?${W()}&sort_by=visibility_change&sort_order=asc&per_page=1&page=1`)
    expect(body.data.map((row: any) => row.brand.name)).toEqual(["Globex"])
    expect(body.links.next).toContain("sort_by=visibility_change&sort_order=asc&per_page=1&page=2")
    expect((await ok(`brands?${W()}&sort_by=name&sort_order=desc`)).data.map((row: any) => row.brand.name)).toEqual(["Globex", "Acme"])
    // The previous period's counts are shown, not sort keys.
    await invalid(`brands?${W()}&sort_by=previous_responses_count`, {
      sort_by: [
        "The selected sort by is invalid. Allowed: responses_count, mentioned_count, visibility, visibility_change, total_mentions, " +
        "share_of_voice, share_of_voice_change, average_position, average_position_change, average_sentiment, average_sentiment_change, name."
      ]
    })
    // An empty sort_by or sort_order takes the default.
    expect((await ok(`brands?${W()}&sort_by=&sort_order=`)).data.map((row: any) => row.brand.name)).toEqual(["Acme", "Globex"])
  })

  it("chooses rows by brands[] and segments[] in every form, denominators unchanged", async () => {
    const globex = await ok(`brands?${W()}&segments[]=${ids.segments[1]}`)
    expect(globex.data.map((row: any) => [row.brand.name, row.total_mentions, row.responses_count])).toEqual([["Globex", 4, 3]])
    expect((await ok(`brands?${W()}&brands=${ids.brands[1]}`)).data).toEqual(globex.data)
    expect((await ok(`brands?${W()}&brands[0]=${ids.brands[1]}&brands[1]=${ids.brands[2]}`)).data).toEqual(globex.data)
    expect(globex.links.first).toContain(`segments[]=${ids.segments[1]}`)
  })

  it("refuses foreign or malformed ids, unknown choices, every field at once", async () => {
    await invalid(
      `brands?${W()}&brands[]=${other.brands[0]}&brands[]=abc&segments[]=${other.segments[0]}&segments=0&sort_by=used_count&sort_order=up`,
      {
        "brands.0": ["The selected brands.0 is invalid."],
        "brands.1": ["The brands.1 field must be an integer."],
        "segments.0": ["The selected segments.0 is invalid."],
        "segments.1": ["The segments.1 field must be at least 1."],
        sort_by: [
          "The selected sort by is invalid. Allowed: responses_count, mentioned_count, visibility, visibility_change, total_mentions, " +
          "share_of_voice, share_of_voice_change, average_position, average_position_change, average_sentiment, average_sentiment_change, name."
        ],
        sort_order: ["The selected sort order is invalid. Allowed: asc, desc."]
      }
    )
    await invalid(`brands/time-series?${W()}&interval=day&metric=reach&tags[]=${other.tags[0]}`, {
      "tags.0": ["The selected tags.0 is invalid."],
      metric: ["The selected metric is invalid. Allowed: visibility, share_of_voice, average_position, average_sentiment."]
    })
    await invalid(`brands/time-series?${W()}`, { interval: ["The interval field is required."] })
    await invalid(`prompts?start_date=${day(1)}&end_date=${day(0)}&sort_by=own_visibility_change`, {
      end_date: ["The end date field must be a date after or equal to start date."],
      sort_by: ["The selected sort by is invalid. Allowed: own_visibility, responses_count, brands_mentioned, text."]
    })
    await invalid("brands", { start_date: ["The start date field is required."], end_date: ["The end date field is required."] })
  })

  it("refuses another project's ids when they are the query's only fault", async () => {
    await invalid(`brands?${W()}&brands[]=${ids.brands[0]}&brands[]=${other.brands[0]}`, { "brands.1": ["The selected brands.1 is invalid."] })
    await invalid(`brands/time-series?${W()}&interval=week&segments[]=${other.segments[0]}&tags[]=${ids.tags[0]}`, {
      "segments.0": ["The selected segments.0 is invalid."]
    })
    await invalid(`prompts?${W()}&tags[]=${other.tags[0]}&monitors[]=${other.monitors[0]}`, {
      "monitors.0": ["The selected monitors.0 is invalid."],
      "tags.0": ["The selected tags.0 is invalid."]
    })
    // The same ids of this project: the answers.
    expect((await ok(`prompts?${W()}&tags[]=${ids.tags[0]}`)).meta.total).toBe(1)
  })

  it("answers the time series with dense buckets, each point with its counts", async () => {
    const body = await ok(`brands/time-series?${W()}&interval=day&metric=share_of_voice`)
    expect(Object.keys(body.data)).toEqual(["interval", "metric", "series"])
    expect(body.data.interval).toBe("day")
    expect(body.data.metric).toBe("share_of_voice")
    // Acme and Globex both 2 responses in W: Acme first by name.
    expect(body.data.series.map((s: any) => s.brand)).toEqual([brand(0), brand(1)])
    // Counted mentions per day: 2 (w1), 1 (w2), 0, 1 (w3).
    expect(body.data.series[0].data).toEqual([
      { timestamp: at(-3), value: 50, count: 1, total: 2 },
      { timestamp: at(-2), value: 100, count: 1, total: 1 },
      { timestamp: at(-1), value: null, count: 0, total: 0 },
      { timestamp: at(0), value: 0, count: 0, total: 1 }
    ])
    for (const point of body.data.series[0].data) expect(Object.keys(point)).toEqual(["timestamp", "value", "count", "total"])
    const position = await ok(`brands/time-series?${W()}&interval=week&metric=average_position&top_n=1&brands[]=${ids.brands[1]}`)
    expect(position.data.series.map((s: any) => s.brand.name)).toEqual(["Globex"])
    for (const point of position.data.series[0].data) expect(point.total).toBeNull()
    // The default metric is visibility; top_n is clamped.
    const visibility = await ok(`brands/time-series?${W()}&interval=month&top_n=0`)
    expect(visibility.data.metric).toBe("visibility")
    expect(visibility.data.series).toHaveLength(1)
  })

  it("lists the prompts, where the own brand is missing first", async () => {
    const body = await ok(`prompts?${W()}`)
    expect(Object.keys(body)).toEqual(["data", "links", "meta"])
    // Prompt 1: w3, Acme absent. Prompt 0: w1 w2, Acme in both, Globex in w1.
    expect(body.data).toEqual([
      {
        prompt: { id: ids.prompts[1], text: "Prompt 1", monitor_id: ids.monitors[0] },
        responses_count: 1,
        own: { mentioned_count: 0, visibility: 0, visibility_ci: { low: 0, high: 79.35 }, average_position: null },
        top_competitor: { brand: brand(1), mentioned_count: 1, visibility: 100 },
        brands_mentioned: 1
      },
      {
        prompt: { id: ids.prompts[0], text: "Prompt 0", monitor_id: ids.monitors[0] },
        responses_count: 2,
        own: { mentioned_count: 2, visibility: 100, visibility_ci: { low: 34.24, high: 100 }, average_position: 1.5 },
        top_competitor: { brand: brand(1), mentioned_count: 1, visibility: 50 },
        brands_mentioned: 2
      }
    ])
    for (const row of body.data) expect(Object.keys(row)).toEqual(["prompt", "responses_count", "own", "top_competitor", "brands_mentioned"])
    expect((await ok(`prompts?${W()}&sort_order=desc`)).data.map((row: any) => row.prompt.id)).toEqual([ids.prompts[0], ids.prompts[1]])
    expect((await ok(`prompts?${W()}&tags[]=${ids.tags[0]}`)).meta.total).toBe(1)
  })

  it("reads classifications and the own brand at request time", async () => {
    const patch = (path: string, body: unknown) => server.request("PATCH", `/api/v1/${path}`, { key, project: ids.project, body })
    try {
      // Hidden counted again: its mention joins the denominators of share of voice.
      expect((await patch(`brands/${ids.brands[2]}`, { classification: "other" })).status).toBe(200)
      const counted = await ok(`brands?${W()}`)
      expect(counted.data.map((row: any) => [row.brand.name, row.total_mentions])).toEqual([["Acme", 5], ["Globex", 5], ["Hidden", 5]])
      // Globex as the own brand.
      expect((await patch(`projects/${ids.project}`, { brand_id: ids.brands[1] })).status).toBe(200)
      const own = await ok(`brands?${W()}&sort_by=name&sort_order=asc`)
      expect(own.data.map((row: any) => [row.brand.name, row.brand.is_own])).toEqual([["Acme", false], ["Globex", true], ["Hidden", false]])
      const prompts = await ok(`prompts?${W()}`)
      // Prompt 0 (Globex in 1 of 2) now comes before prompt 1 (1 of 1).
      expect(prompts.data.map((row: any) => [row.prompt.id, row.own.visibility, row.top_competitor.brand.name])).toEqual([
        [ids.prompts[0], 50, "Acme"],
        [ids.prompts[1], 100, "Hidden"]
      ])
      // No own brand: no own figures, prompts by id.
      expect((await patch(`projects/${ids.project}`, { brand_id: null })).status).toBe(200)
      const none = await ok(`prompts?${W()}`)
      expect(none.data.map((row: any) => [row.prompt.id, row.own])).toEqual([[ids.prompts[0], null], [ids.prompts[1], null]])
    } finally {
      await patch(`brands/${ids.brands[2]}`, { classification: "ignored" })
      await patch(`projects/${ids.project}`, { brand_id: ids.brands[0] })
    }
  })

  it("describes the three endpoints in the OpenAPI document, with examples of their rows", async () => {
    const spec = (await server.request("GET", "/api/v1/openapi.json")).body
    for (const path of ["brands", "brands/time-series", "prompts"]) {
      const operation = spec.paths[`/api/v1/analytics/${path}`].get
      expect(operation.summary, path).toBeTruthy()
      expect(operation.description, path).toContain("analytics:read")
      const required = operation.parameters.filter((p: any) => p.required).map((p: any) => p.name)
      expect(required, path).toEqual(expect.arrayContaining(["start_date", "end_date", ...(path.endsWith("time-series") ? ["interval"] : [])]))
    }
    for (const name of ["BrandAnalyticsRow", "PromptAnalyticsRow", "BrandSeriesPoint"]) {
      expect(spec.components.schemas[name].examples?.length, name).toBeGreaterThan(0)
    }
    expect(spec.components.schemas.ConfidenceInterval.description).toContain("Wilson")
  })

  it("shows each project its own brands, and checks the project header first", async () => {
    const theirs = await get(`brands?${W()}`, other.project)
    expect(theirs.body.data.map((row: any) => [row.brand.id, row.mentioned_count, row.brand.is_own])).toEqual([[other.brands[0], 1, false]])
    for (const path of ["brands", "brands/time-series", "prompts"]) {
      const missing = await server.request("GET", `/api/v1/analytics/${path}`, { key })
      expect(missing.status).toBe(400)
      expect(missing.body).toEqual({ message: "Missing required header Service-Project-Id" })
    }
  })
})
