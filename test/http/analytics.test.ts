import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type AnalyticsServer, type DatasetIds, type DatasetSpec, startAnalyticsServer } from "../support/AnalyticsData.ts"
import { backends } from "../support/TestServer.ts"

/**
 * The three analytics endpoints over HTTP (docs/api.md): envelopes and row
 * shapes, the query's forms and its 422s, project scoping, and the time series' dense buckets.
 */

const DAY = 86_400_000
/** A calendar date `offset` days from today (UTC). */
const day = (offset: number) => new Date(Date.now() + offset * DAY).toISOString().slice(0, 10)
const at = (offset: number, time = "00:00:00.000") => `${day(offset)}T${time}Z`

const INVALID = "The given data was invalid."
const TIMESTAMP = /^\d{4}-\d\d-\d\dT00:00:00\.000Z$/
const ROW_KEYS = [
  "used_count",
  "used_count_change",
  "used_percentage",
  "used_percentage_change",
  "average_citations",
  "average_citations_change",
  "first_seen_on",
  "last_seen_on"
]

/**
 * W = today-3 .. today (4 days), P = today-7 .. today-4.
 * R(W): w1 w2 w3 w4 (T = 4); R(P): p1 p2 (2). f1 failed, never counted.
 */
const dataset: DatasetSpec = {
  monitors: [{ country: "US", platforms: ["chatgpt", "claude"] }, { country: "DE", platforms: ["gemini"] }],
  tags: 2,
  prompts: [{ monitor: 0, tags: [0] }, { monitor: 1, tags: [] }, { monitor: 0, tags: [1] }],
  sources: ["alpha.com", "beta.com"],
  urls: [{ source: 0, url: "https://alpha.com/1" }, { source: 0, url: "https://alpha.com/2" }, { source: 1, url: "https://beta.com/" }],
  responses: [
    { prompt: 0, platform: "chatgpt", status: "analyzed", collected_at: at(-3), citations: [0, 0, 2] }, // w1
    { prompt: 1, platform: "gemini", status: "analyzed", collected_at: at(-2, "12:00:00.000"), citations: [1] }, // w2
    { prompt: 2, platform: "claude", status: "analyzed", collected_at: at(-1), citations: [2] }, // w3
    { prompt: 0, platform: "chatgpt", status: "analyzed", collected_at: at(0), citations: [] }, // w4
    { prompt: 0, platform: "chatgpt", status: "failed", collected_at: at(-2), citations: [0] }, // f1
    { prompt: 0, platform: "chatgpt", status: "analyzed", collected_at: at(-5), citations: [0] }, // p1
    { prompt: 1, platform: "gemini", status: "analyzed", collected_at: at(-7), citations: [2] } // p2
  ]
}

/** Another project of the same organization citing the same URLs in the same days. */
const neighbour: DatasetSpec = {
  monitors: [{ country: "US" }],
  tags: 1,
  prompts: [{ monitor: 0, tags: [0] }],
  sources: ["alpha.com", "zeta.com"],
  urls: [{ source: 0, url: "https://alpha.com/1" }, { source: 1, url: "https://zeta.com/" }],
  responses: [
    { prompt: 0, platform: "chatgpt", status: "analyzed", collected_at: at(-3), citations: [0, 1] },
    { prompt: 0, platform: "chatgpt", status: "analyzed", collected_at: at(-9), citations: [0] }
  ]
}

describe.each(backends)("analytics (%s)", (backend) => {
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
  const invalid = async (path: string, errors: Record<string, Array<string>>) => {
    const reply = await get(path)
    expect(reply.status, reply.text).toBe(422)
    expect(reply.body).toEqual({ message: INVALID, errors })
  }

  const sourceRef = (index: number) => ({ id: ids.sources[index]!, domain: dataset.sources[index]! })
  const urlRef = (index: number) => ({ id: ids.urls[index]!, source_id: ids.sources[dataset.urls[index]!.source]!, url: dataset.urls[index]!.url })

  it("lists the sources of the window in the pagination envelope, rows in the documented shape", async () => {
    const reply = await get(`sources?${W()}`)
    expect(reply.status, reply.text).toBe(200)
    expect(Object.keys(reply.body)).toEqual(["data", "links", "meta"])
    // alpha: W w1(×2) w2 → 2 of 4 = 50 %, 3/4 = 0.75; P p1 → 1 of 2 = 50 %, 0.5. beta: W w1 w3 → 50 %, 0.5; P p2 → 50 %, 0.5.
    expect(reply.body.data).toEqual([
      {
        source: sourceRef(0),
        used_count: 2,
        used_count_change: 1,
        used_percentage: 50,
        used_percentage_change: 0,
        average_citations: 0.75,
        average_citations_change: 0.25,
        first_seen_on: day(-5),
        last_seen_on: day(-2)
      },
      {
        source: sourceRef(1),
        used_count: 2,
        used_count_change: 1,
        used_percentage: 50,
        used_percentage_change: 0,
        average_citations: 0.5,
        average_citations_change: 0,
        first_seen_on: day(-7),
        last_seen_on: day(-1)
      }
    ])
    for (const row of reply.body.data) expect(Object.keys(row)).toEqual(["source", ...ROW_KEYS])
    expect(reply.body.meta).toMatchObject({ current_page: 1, from: 1, to: 2, last_page: 1, per_page: 25, total: 2 })
    expect(reply.body.meta.path).toMatch(/\/api\/v1\/analytics\/sources$/)
  })

  it("lists exact URLs, with their source", async () => {
    const reply = await get(`source-urls?${W()}`)
    expect(reply.status, reply.text).toBe(200)
    // https://beta.com/: w1 w3 → 50 %; alpha.com/1: w1 (×2) → 25 %, 0.5, P p1 50 %; alpha.com/2: w2 → 25 %, 0.25.
    expect(reply.body.data).toEqual([
      { source_url: urlRef(2), used_count: 2, used_count_change: 1, used_percentage: 50, used_percentage_change: 0, average_citations: 0.5, average_citations_change: 0, first_seen_on: day(-7), last_seen_on: day(-1) },
      { source_url: urlRef(0), used_count: 1, used_count_change: 0, used_percentage: 25, used_percentage_change: -25, average_citations: 0.5, average_citations_change: 0, first_seen_on: day(-5), last_seen_on: day(-3) },
      { source_url: urlRef(1), used_count: 1, used_count_change: 1, used_percentage: 25, used_percentage_change: 25, average_citations: 0.25, average_citations_change: 0.25, first_seen_on: day(-2), last_seen_on: day(-2) }
    ])
    for (const row of reply.body.data) expect(Object.keys(row)).toEqual(["source_url", ...ROW_KEYS])
    expect(Object.keys(reply.body.data[0].source_url)).toEqual(["id", "source_id", "url"])
  })

  it("sorts by sort_by / sort_order and pages after sorting, with per_page clamped", async () => {
    const urls = async (query: string) => (await get(`source-urls?${W()}&${query}`)).body
    expect((await urls("sort_by=url&sort_order=asc")).data.map((row: any) => row.source_url.url)).toEqual([
      "https://alpha.com/1",
      "https://alpha.com/2",
      "https://beta.com/"
    ])
    expect((await urls("sort_by=used_percentage_change&sort_order=asc")).data.map((row: any) => row.source_url.id)).toEqual([
      ids.urls[0],
      ids.urls[2],
      ids.urls[1]
    ])
    const page = await urls("sort_by=first_seen_on&sort_order=desc&per_page=1&page=2")
    expect(page.data.map((row: any) => row.source_url.id)).toEqual([ids.urls[0]])
    expect(page.meta).toMatchObject({ current_page: 2, per_page: 1, total: 3, last_page: 3, from: 2, to: 2 })
    expect(page.links.next).toContain(`sort_by=first_seen_on&sort_order=desc&per_page=1&page=3`)
    expect((await urls("per_page=500")).meta.per_page).toBe(100)
    expect((await urls("per_page=0")).meta).toMatchObject({ per_page: 1, total: 3, last_page: 3 })
    expect((await urls("per_page=abc")).meta.per_page).toBe(25)
    const past = await urls("page=9")
    expect(past.data).toEqual([])
    expect(past.meta).toMatchObject({ current_page: 9, from: null, to: null, total: 3 })
  })

  it("accepts array filters bracketed, plain, indexed and repeated, and keeps them in the page links", async () => {
    const sources = async (query: string) => {
      const reply = await get(`sources?${W()}&${query}`)
      expect(reply.status, reply.text).toBe(200)
      return reply.body
    }
    // gemini: w2 alone (T = 1): alpha 100 %.
    const gemini = await sources("platforms[]=gemini")
    expect(gemini.data.map((row: any) => [row.source.id, row.used_percentage])).toEqual([[ids.sources[0], 100]])
    expect((await sources("platforms=gemini")).data).toEqual(gemini.data)
    expect((await sources("platforms[0]=gemini")).data).toEqual(gemini.data)
    expect(gemini.links.first).toContain("platforms[]=gemini")
    // Repeated, in two forms: gemini and claude (w2, w3).
    const two = await sources("platforms[]=gemini&platforms=claude")
    expect(two.data.map((row: any) => [row.source.id, row.used_percentage])).toEqual([[ids.sources[0], 50], [ids.sources[1], 50]])
    // Countries in any case: DE is w2 (the response's own country).
    expect((await sources("countries[]=de")).data).toEqual(gemini.data)
    expect((await sources(`monitors[]=${ids.monitors[1]}`)).data).toEqual(gemini.data)
    // A tag: tag 1 is on prompt 2 (w3 alone): beta 100 %.
    const tagged = await sources(`tags[]=${ids.tags[1]}`)
    expect(tagged.data.map((row: any) => [row.source.id, row.used_percentage, row.first_seen_on])).toEqual([[ids.sources[1], 100, day(-7)]])
    // Any of the tags.
    expect((await sources(`tags[]=${ids.tags[1]}&tags[]=${ids.tags[0]}`)).meta.total).toBe(2)
  })

  it("never counts another project's data, and shows each project its own", async () => {
    const own = await get(`sources?${W()}`)
    expect(own.body.data.map((row: any) => row.source.domain)).toEqual(["alpha.com", "beta.com"])
    const theirs = await get(`sources?${W()}`, other.project)
    // The neighbour: one response in W citing alpha.com/1 and zeta.com.
    expect(theirs.body.data.map((row: any) => [row.source.id, row.used_count, row.used_percentage, row.first_seen_on])).toEqual([
      [other.sources[0], 1, 100, day(-9)],
      [other.sources[1], 1, 100, day(-3)]
    ])
    // Their monitors and tags are not filters of this project.
    await invalid(`sources?${W()}&monitors[]=${other.monitors[0]}&tags[]=${ids.tags[0]}&tags[]=${other.tags[0]}`, {
      "monitors.0": ["The selected monitors.0 is invalid."],
      "tags.1": ["The selected tags.1 is invalid."]
    })
  })

  it("answers the time series with dense buckets, ranked URLs and top_n", async () => {
    const reply = await get(`source-url-usage-time-series?${W()}&interval=day`)
    expect(reply.status, reply.text).toBe(200)
    // Buckets today-3 .. today, one response each. Citations: alpha.com/1 2, beta.com/ 2, alpha.com/2 1.
    const points = (values: Array<number>) => values.map((value, i) => ({ timestamp: at(-3 + i), value }))
    expect(reply.body).toEqual({
      data: {
        interval: "day",
        series: [
          { source_url: urlRef(0), data: points([100, 0, 0, 0]) },
          { source_url: urlRef(2), data: points([100, 0, 100, 0]) },
          { source_url: urlRef(1), data: points([0, 100, 0, 0]) }
        ]
      }
    })
    const series = async (query: string) => (await get(`source-url-usage-time-series?${query}`)).body.data
    expect((await series(`${W()}&interval=day&top_n=2`)).series).toHaveLength(2)
    expect((await series(`${W()}&interval=day&top_n=0`)).series).toHaveLength(1)
    expect((await series(`${W()}&interval=day&top_n=abc`)).series).toHaveLength(3)
    // A window where nothing is cited: no series.
    const empty = await series(`start_date=${day(-400)}&end_date=${day(-300)}&interval=week`)
    expect(empty).toEqual({ interval: "week", series: [] })
    const weeks = await series(`start_date=${day(-30)}&end_date=${day(0)}&interval=week`)
    for (const entry of weeks.series) {
      expect(entry.data.length).toBeGreaterThanOrEqual(5)
      for (const point of entry.data) {
        expect(point.timestamp).toMatch(TIMESTAMP)
        expect(new Date(point.timestamp).getUTCDay()).toBe(1)
      }
      expect(new Date(entry.data[0].timestamp).getTime()).toBeLessThanOrEqual(Date.parse(`${day(-30)}T00:00:00.000Z`))
      expect(entry.data.at(-1).timestamp <= at(0)).toBe(true)
    }
    const years = await series(`start_date=${day(-3)}&end_date=${day(0)}&interval=year`)
    expect(years.series[0].data[0].timestamp).toMatch(/^\d{4}-01-01T00:00:00\.000Z$/)
  })

  it("validates the dates: required, real calendar dates, ordered, not after today", async () => {
    await invalid("sources", {
      start_date: ["The start date field is required."],
      end_date: ["The end date field is required."]
    })
    await invalid("source-urls?start_date=2026-02-30&end_date=2026-1-05", {
      start_date: ["The start date field must be a valid date in the format YYYY-MM-DD."],
      end_date: ["The end date field must be a valid date in the format YYYY-MM-DD."]
    })
    await invalid(`sources?start_date=${day(-1)}&end_date=${day(-2)}`, {
      end_date: ["The end date field must be a date after or equal to start date."]
    })
    await invalid(`sources?start_date=${day(-1)}&end_date=${day(1)}`, {
      end_date: ["The end date field must be a date before or equal to today."]
    })
    await invalid(`source-url-usage-time-series?start_date=${day(2)}&end_date=${day(1)}&interval=day`, {
      end_date: ["The end date field must be a date after or equal to start date.", "The end date field must be a date before or equal to today."]
    })
    expect((await get(`sources?start_date=${day(0)}&end_date=${day(0)}`)).status).toBe(200)
    expect((await get("sources?start_date=2024-02-29&end_date=2024-02-29")).status).toBe(200)
    // A window from the first years of the calendar: its previous period lies before year 1, which is fine.
    for (const start of ["0001-01-01", "0000-01-01"]) {
      const long = await get(`sources?start_date=${start}&end_date=${day(0)}`)
      expect(long.status, long.text).toBe(200)
      expect(long.body.meta.total).toBe(2)
    }
  })

  it("validates the filters and the choices, every field at once, with item names", async () => {
    await invalid(
      `sources?${W()}&platforms[]=chatgpt&platforms[]=bing&countries[]=us&countries=XX&monitors[]=abc&monitors[]=0&tags=1.5&sort_by=url&sort_order=up`,
      {
        "platforms.1": ["The selected platforms.1 is invalid. Allowed: chatgpt, perplexity, gemini, grok, copilot, claude, google_ai_mode, google_ai_overview."],
        "countries.1": ["The countries.1 field must be an ISO 3166-1 alpha-2 country code."],
        "monitors.0": ["The monitors.0 field must be an integer."],
        "monitors.1": ["The monitors.1 field must be at least 1."],
        "tags.0": ["The tags.0 field must be an integer."],
        sort_by: ["The selected sort by is invalid. Allowed: used_count, used_count_change, used_percentage, used_percentage_change, average_citations, average_citations_change, first_seen_on, last_seen_on, domain."],
        sort_order: ["The selected sort order is invalid. Allowed: asc, desc."]
      }
    )
    await invalid(`source-urls?${W()}&sort_by=domain`, { sort_by: ["The selected sort by is invalid. Allowed: used_count, used_count_change, used_percentage, used_percentage_change, average_citations, average_citations_change, first_seen_on, last_seen_on, url."] })
    await invalid(`source-url-usage-time-series?${W()}`, { interval: ["The interval field is required."] })
    await invalid(`source-url-usage-time-series?${W()}&interval=hour&platforms=Gemini`, {
      "platforms.0": ["The selected platforms.0 is invalid. Allowed: chatgpt, perplexity, gemini, grok, copilot, claude, google_ai_mode, google_ai_overview."],
      interval: ["The selected interval is invalid. Allowed: day, week, month, year."]
    })
    // An empty sort_by or sort_order takes the default.
    expect((await get(`sources?${W()}&sort_by=&sort_order=`)).status).toBe(200)
  })

  it("refuses more than 1000 buckets", async () => {
    await invalid(`source-url-usage-time-series?start_date=${day(-1000)}&end_date=${day(0)}&interval=day`, {
      interval: ["The interval must not divide the dates into more than 1000 buckets."]
    })
    const thousand = await get(`source-url-usage-time-series?start_date=${day(-999)}&end_date=${day(0)}&interval=day`)
    expect(thousand.status, thousand.text).toBe(200)
    expect(thousand.body.data.series[0].data).toHaveLength(1000)
    expect((await get(`source-url-usage-time-series?start_date=${day(-1000)}&end_date=${day(0)}&interval=week`)).status).toBe(200)
  })

  it("checks the project header before the query", async () => {
    const missing = await server.request("GET", "/api/v1/analytics/sources", { key })
    expect(missing.status).toBe(400)
    expect(missing.body).toEqual({ message: "Missing required header Service-Project-Id" })
    const foreign = await server.request("GET", "/api/v1/analytics/sources", { key, project: 999_999 })
    expect(foreign.status).toBe(404)
    expect(foreign.body).toEqual({ message: "Project not found" })
  })
})
