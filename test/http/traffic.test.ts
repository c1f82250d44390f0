import { Effect } from "effect"
import { gzipSync } from "node:zlib"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { lineIngestion } from "../../src/Traffic/Ingest.ts"
import { Salt } from "../../src/Traffic/Salt.ts"
import { backends, startServer, type TestServer } from "../support/TestServer.ts"

const GPTBOT = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)"
const BYTESPIDER = "Mozilla/5.0 (Linux; Android 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; Bytespider; spider-feedback@bytedance.com)"
const EXTENDED = "Mozilla/5.0 (compatible; Google-Extended)"
const BROWSER = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

/** A UTC day `offset` days from today, as YYYY-MM-DD. */
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10)

const clfTime = (isoDay: string, time: string) => {
  const [y, m, d] = isoDay.split("-")
  return `${d}/${MONTHS[Number(m) - 1]}/${y}:${time} +0000`
}
const line = (ip: string, isoDay: string, path: string, status: number, referer: string, ua: string) =>
  `${ip} - - [${clfTime(isoDay, "10:00:00")}] "GET ${path} HTTP/1.1" ${status} 512 "${referer}" "${ua}"`

/** Every address in the logs below: none may be stored anywhere. */
const ADDRESSES = ["20.171.206.5", "203.0.113.9", "198.51.100.1", "198.51.100.2", "10.0.0.1", "203.0.113.20", "203.0.113.21", "203.0.113.22", "192.0.2.33"]

/** A log of one day: each verdict, a spoof, referrals, a person, a cut last line. */
const logOf = (isoDay: string) =>
  [
    line("20.171.206.5", isoDay, "/pricing", 200, "-", GPTBOT),
    line("20.171.206.5", isoDay, "/pricing/?session=secret", 200, "-", GPTBOT),
    line("20.171.206.5", isoDay, "/about", 404, "-", GPTBOT),
    line("203.0.113.9", isoDay, "/pricing", 200, "-", GPTBOT),
    line("198.51.100.1", isoDay, "/blog", 200, "-", BYTESPIDER),
    line("198.51.100.2", isoDay, "/blog", 200, "-", EXTENDED),
    line("10.0.0.1", isoDay, "/pricing", 503, "-", GPTBOT),
    line("203.0.113.20", isoDay, "/pricing", 200, "https://chatgpt.com/", BROWSER),
    line("203.0.113.20", isoDay, "/pricing", 200, "https://chatgpt.com/", BROWSER),
    line("203.0.113.21", isoDay, "/?utm_source=perplexity", 200, "-", BROWSER),
    line("203.0.113.22", isoDay, "/features", 200, "https://chatgpt.com/", BROWSER),
    line("192.0.2.33", isoDay, "/", 200, "https://www.google.com/", BROWSER),
    // Cut mid-line, no final newline.
    `203.0.113.7 - - [${clfTime(isoDay, "11:00:00").slice(0, 8)}`
  ].join("\n")

/** What the service should count of `text`: the same ingestion core, run here on the lines. */
const recount = (text: string) => {
  const ingestion = lineIngestion({ format: "combined", siteHosts: [] }, Effect.runSync(Effect.map(Salt, (s) => s).pipe(Effect.provide(Salt.fixed("t")))))
  for (const piece of text.split("\n")) ingestion.add(piece)
  return ingestion.result()
}

describe.each(backends)("agent traffic (%s)", (backend) => {
  let server: TestServer
  let organization: number
  let key: string
  let project: number
  beforeAll(async () => {
    server = await startServer(backend)
    organization = (await server.createOrganization()).id
    key = (await server.createKey(organization, ["*"])).key
    project = (await server.request("POST", "/api/v1/projects", { key, body: { name: "Site" } })).body.data.id
  })
  afterAll(() => server.close())

  const api = (method: string, path: string, body?: unknown, options: { key?: string; project?: number } = {}) =>
    server.request(method, `/api/v1${path}`, { key: options.key ?? key, project: options.project ?? project, body })

  const upload = (source: number, bytes: Uint8Array, options: { key?: string; project?: number } = {}) =>
    fetch(`${server.baseUrl}/api/v1/traffic-sources/${source}/uploads`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${options.key ?? key}`,
        "service-project-id": String(options.project ?? project),
        "content-type": "application/octet-stream"
      },
      body: new Blob([new Uint8Array(bytes)])
    }).then(async (reply) => ({ status: reply.status, body: await reply.json() as any }))

  /** The upload once read. */
  const settled = async (source: number, id: number) => {
    for (let attempt = 0; attempt < 200; attempt++) {
      const reply = await api("GET", `/traffic-sources/${source}/uploads/${id}`)
      expect(reply.status, reply.text).toBe(200)
      if (reply.body.data.status !== "processing") return reply.body.data
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    throw new Error("upload still processing")
  }

  const newSource = async (body: Record<string, unknown> = {}) => {
    const reply = await api("POST", "/traffic-sources", { name: "nginx", ...body })
    expect(reply.status, reply.text).toBe(201)
    return reply.body.data
  }

  describe("sources", () => {
    it("creates, lists, reads, updates and deletes a source, with its defaults", async () => {
      const created = await newSource({ site_hosts: ["WWW.Example.com", "www.example.com"] })
      expect(created).toMatchObject({ project_id: project, name: "nginx", site_hosts: ["www.example.com"], format: "auto", field_map: null })
      expect((await api("GET", `/traffic-sources/${created.id}`)).body.data).toEqual(created)
      const list = await api("GET", "/traffic-sources")
      expect(list.status).toBe(200)
      expect(list.body.data.map((row: any) => row.id)).toContain(created.id)
      const updated = await api("PATCH", `/traffic-sources/${created.id}`, {
        format: "ndjson",
        field_map: { time: "ts", path: "req.url", status: "res.status", user_agent: "ua" }
      })
      expect(updated.status, updated.text).toBe(200)
      expect(updated.body.data).toMatchObject({ format: "ndjson", field_map: { time: "ts", path: "req.url", status: "res.status", user_agent: "ua" } })
      // Back to a format without a map: the map may stay, or go.
      expect((await api("PATCH", `/traffic-sources/${created.id}`, { format: "combined", field_map: null })).body.data.field_map).toBeNull()
      expect((await api("DELETE", `/traffic-sources/${created.id}`)).status).toBe(204)
      const gone = await api("GET", `/traffic-sources/${created.id}`)
      expect(gone.status).toBe(404)
      expect(gone.body).toEqual({ message: "Traffic source not found" })
    })

    it("answers 422 for a bad body, naming each field", async () => {
      const missing = await api("POST", "/traffic-sources", { format: "apache" })
      expect(missing.status).toBe(422)
      expect(missing.body.errors.name).toEqual(["The name field is required."])
      expect(missing.body.errors.format[0]).toMatch(/^The selected format is invalid\./)
      const host = await api("POST", "/traffic-sources", { name: "x", site_hosts: ["not a host"] })
      expect(host.status).toBe(422)
      expect(Object.keys(host.body.errors)).toEqual(["site_hosts.0"])
      const noMap = await api("POST", "/traffic-sources", { name: "x", format: "ndjson" })
      expect(noMap.status).toBe(422)
      expect(noMap.body).toEqual({ message: "The given data was invalid.", errors: { field_map: ["The field map field is required when format is ndjson."] } })
      const source = await newSource()
      const patch = await api("PATCH", `/traffic-sources/${source.id}`, { format: "ndjson" })
      expect(patch.status).toBe(422)
      expect((await api("GET", `/traffic-sources/${source.id}`)).body.data.format).toBe("auto")
    })

    it("answers 401 without a key, 403 without the traffic abilities, 400 without the project header", async () => {
      expect((await server.request("GET", "/api/v1/traffic-sources", { project })).status).toBe(401)
      const reader = (await server.createKey(organization, ["traffic:read"])).key
      const denied = await api("POST", "/traffic-sources", { name: "x" }, { key: reader })
      expect(denied.status).toBe(403)
      expect(denied.body).toEqual({ message: "This action is unauthorized.", required_ability: "traffic:write" })
      const source = await newSource()
      const refused = await upload(source.id, Buffer.from(logOf(day(-1))), { key: reader })
      expect(refused.status).toBe(403)
      const other = (await server.createKey(organization, ["analytics:read"])).key
      expect((await api("GET", `/analytics/agent-traffic?start_date=${day(-1)}&end_date=${day(0)}`, undefined, { key: other })).status).toBe(403)
      expect((await server.request("GET", "/api/v1/traffic-sources", { key })).status).toBe(400)
    })

    it("keeps another organization's sources and uploads out of reach (404)", async () => {
      const mine = await newSource()
      const theirOrg = (await server.createOrganization("Other")).id
      const theirKey = (await server.createKey(theirOrg, ["*"])).key
      const theirProject = (await server.request("POST", "/api/v1/projects", { key: theirKey, body: { name: "Theirs" } })).body.data.id
      const theirs = (await server.request("POST", "/api/v1/traffic-sources", { key: theirKey, project: theirProject, body: { name: "theirs" } })).body.data
      const sent = await upload(theirs.id, Buffer.from(logOf(day(-2))), { key: theirKey, project: theirProject })
      expect(sent.status).toBe(202)
      // Their source in my project, their project with my key.
      for (const [method, path] of [["GET", `/traffic-sources/${theirs.id}`], ["PATCH", `/traffic-sources/${theirs.id}`], ["DELETE", `/traffic-sources/${theirs.id}`], ["GET", `/traffic-sources/${theirs.id}/uploads/${sent.body.data.id}`]] as const) {
        const reply = await api(method, path, method === "PATCH" ? { name: "mine now" } : undefined)
        expect(reply.status, path).toBe(404)
        expect(reply.body).toEqual({ message: "Traffic source not found" })
      }
      expect((await upload(theirs.id, Buffer.from("x"))).status).toBe(404)
      expect((await api("GET", `/traffic-sources/${mine.id}`, undefined, { project: theirProject })).body).toEqual({ message: "Project not found" })
      // Their upload, named under my source.
      const crossed = await api("GET", `/traffic-sources/${mine.id}/uploads/${sent.body.data.id}`)
      expect(crossed.status).toBe(404)
      expect(crossed.body).toEqual({ message: "Upload not found" })
      // Their hits are not in my analytics.
      const mineOnly = await api("GET", `/analytics/agent-traffic?start_date=${day(-2)}&end_date=${day(-2)}`)
      expect(mineOnly.body.data).toEqual([])
    })
  })

  describe("uploads and analytics", () => {
    it("reads a log once, reports it, and counts exactly what a recount of its lines gives", async () => {
      const source = await newSource({ format: "combined" })
      const text = logOf(day(-3))
      const expected = recount(text)
      const sent = await upload(source.id, Buffer.from(text))
      expect(sent.status).toBe(202)
      expect(sent.body).toEqual({ data: { id: expect.any(Number), status: "processing" } })
      const done = await settled(source.id, sent.body.data.id)
      expect(done).toMatchObject({
        status: "completed",
        lines: 13,
        parsed: 12,
        unparsed: 1,
        agent_hits: 7,
        referral_visits: 4,
        error: null,
        first_time: `${day(-3)}T10:00:00.000Z`,
        last_time: `${day(-3)}T10:00:00.000Z`
      })
      expect(done.unparsed).toBe(expected.report.unparsed)
      expect(done.agent_hits).toBe(expected.report.agentHits)

      // The same file again: the same upload, counted once.
      const again = await upload(source.id, Buffer.from(text))
      expect(again.status).toBe(202)
      expect(again.body.data).toEqual({ id: sent.body.data.id, status: "completed" })

      const traffic = await api("GET", `/analytics/agent-traffic?start_date=${day(-3)}&end_date=${day(-3)}`)
      expect(traffic.status, traffic.text).toBe(200)
      const byAgent = new Map<string, { hits: number } & Record<string, number>>()
      for (const row of expected.rollup.agentHits) {
        const counts = byAgent.get(row.agent) ?? { hits: 0, verified: 0, outside_list: 0, unverifiable: 0, no_ip: 0 }
        counts.hits += row.hits
        counts[row.verdict]! += row.hits
        byAgent.set(row.agent, counts)
      }
      expect(traffic.body.data.map((row: any) => ({ id: row.agent.id, hits: row.hits, verified: row.verified, outside_list: row.outside_list, unverifiable: row.unverifiable, no_ip: row.no_ip })))
        .toEqual([...byAgent].map(([id, counts]) => ({ id, ...counts })).sort((a, b) => b.hits - a.hits || (a.id < b.id ? -1 : 1)))
      const gptbot = traffic.body.data.find((row: any) => row.agent.name === "GPTBot")
      // /pricing and /pricing/ are one page; the session query is gone.
      expect(gptbot).toMatchObject({
        hits: 5,
        pages: 2,
        verified: 3,
        outside_list: 1,
        no_ip: 1,
        verified_percentage: 75,
        status: { "2xx": 3, "3xx": 0, "4xx": 1, "5xx": 1, other: 0 },
        first_seen: day(-3),
        last_seen: day(-3),
        previous_hits: 0,
        hits_change: null
      })
      expect(gptbot.verified_interval.low).toBeLessThan(75)
      expect(traffic.body.data.find((row: any) => row.agent.name === "Google-Extended")).toMatchObject({ outside_list: 1 })
      expect(traffic.body.data.find((row: any) => row.agent.name === "Bytespider")).toMatchObject({ unverifiable: 1, verified_percentage: null })

      const referrals = await api("GET", `/analytics/ai-referrals?start_date=${day(-3)}&end_date=${day(-3)}`)
      expect(referrals.status, referrals.text).toBe(200)
      expect(referrals.body.data).toEqual([{ platform: "chatgpt", visits: 3, visitors: 2 }, { platform: "perplexity", visits: 1, visitors: 1 }])
      expect(referrals.body.meta).toMatchObject({ group_by: "platform", visits: 4, visitors: 3, lower_bound: true })
      const expectedVisits = expected.rollup.referrals.reduce((sum, row) => sum + row.visits, 0)
      expect(referrals.body.meta.visits).toBe(expectedVisits)
      const byPage = await api("GET", `/analytics/ai-referrals?start_date=${day(-3)}&end_date=${day(-3)}&group_by=page&platforms[]=chatgpt`)
      expect(byPage.body.data).toEqual([{ page: "/pricing", visits: 2, visitors: 1 }, { page: "/features", visits: 1, visitors: 1 }])
    })

    it("reads a gzip log, adds it to the source's counts, and compares with the period before", async () => {
      const source = await newSource()
      const first = await upload(source.id, gzipSync(Buffer.from(logOf(day(-5)))))
      expect(first.status).toBe(202)
      expect(await settled(source.id, first.body.data.id)).toMatchObject({ status: "completed", lines: 13, unparsed: 1, agent_hits: 7 })
      const second = await upload(source.id, gzipSync(Buffer.from(`${logOf(day(-4))}\n${logOf(day(-4))}`)))
      // The cut line of the first copy is followed by a newline: still unparsed, as is the second's.
      expect(await settled(source.id, second.body.data.id)).toMatchObject({ status: "completed", lines: 26, unparsed: 2, agent_hits: 14 })
      const traffic = await api("GET", `/analytics/agent-traffic?start_date=${day(-4)}&end_date=${day(-4)}&platforms[]=chatgpt`)
      expect(traffic.body.meta).toEqual({
        window: { start_date: day(-4), end_date: day(-4) },
        previous: { start_date: day(-5), end_date: day(-5) }
      })
      // Only agents that feed ChatGPT: GPTBot.
      expect(traffic.body.data.map((row: any) => row.agent.name)).toEqual(["GPTBot"])
      expect(traffic.body.data[0]).toMatchObject({ hits: 10, previous_hits: 5, hits_change: 100, verified: 6, verified_percentage: 75, verified_change: 0 })
    })

    it("answers 404 for an unknown source or upload, and 422 for a bad window", async () => {
      const source = await newSource()
      expect((await upload(999_999, Buffer.from("x"))).body).toEqual({ message: "Traffic source not found" })
      expect((await api("GET", `/traffic-sources/${source.id}/uploads/999999`)).body).toEqual({ message: "Upload not found" })
      const missing = await api("GET", "/analytics/agent-traffic")
      expect(missing.status).toBe(422)
      expect(missing.body.errors).toEqual({ start_date: ["The start date field is required."], end_date: ["The end date field is required."] })
      const backwards = await api("GET", `/analytics/ai-referrals?start_date=${day(-1)}&end_date=${day(-2)}&platforms[]=myspace&group_by=week`)
      expect(backwards.status).toBe(422)
      expect(Object.keys(backwards.body.errors).sort()).toEqual(["end_date", "platforms.0"])
      const grouping = await api("GET", `/analytics/ai-referrals?start_date=${day(-1)}&end_date=${day(-1)}&group_by=week`)
      expect(grouping.status).toBe(422)
      expect(Object.keys(grouping.body.errors)).toEqual(["group_by"])
      const future = await api("GET", `/analytics/agent-traffic?start_date=${day(0)}&end_date=${day(2)}`)
      expect(future.body.errors).toEqual({ end_date: ["The end date field must be a date before or equal to today."] })
    })

    // The database's tables, scanned: the SQL backends only (the memory store has no tables to scan).
    if (backend !== "memory") it("stores no address in any table", async () => {
      const source = await newSource()
      const sent = await upload(source.id, Buffer.from(logOf(day(-6))))
      await settled(source.id, sent.body.data.id)
      const tables = await server.sql!(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`)
      expect(tables.map((row) => row.table_name)).toContain("traffic_referrals")
      let scanned = 0
      for (const { table_name } of tables) {
        const rows = await server.sql!(`SELECT row_to_json(t)::text AS row FROM "${table_name as string}" t`)
        for (const { row } of rows) {
          scanned++
          for (const address of ADDRESSES) expect(row as string, `${table_name}`).not.toContain(address)
          expect(row as string).not.toContain("secret")
        }
      }
      expect(scanned).toBeGreaterThan(10)
    })
  })
})
