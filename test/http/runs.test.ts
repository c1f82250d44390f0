import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { inProject } from "../support/ApiClient.ts"
import { backends, startServer, type TestServer } from "../support/TestServer.ts"

/**
 * GET and POST /monitors/{monitor}/runs: a manual trigger, the list with job counts, and tenancy.
 * Runs and their counts are read through the API's typed client (each answer decoded with the endpoint's
 * schema, and only under its declared status: 202, 200); the wire itself (the 202 and the run's key order,
 * the slot's format, the pagination envelope and links, 401/403/404 bodies, a body that is not JSON) with
 * raw requests.
 */
describe.each(backends)("monitor runs (%s)", (backend) => {
  let server: TestServer
  let organization: number
  let key: string
  beforeAll(async () => {
    server = await startServer(backend)
    organization = (await server.createOrganization()).id
    key = (await server.createKey(organization, ["*"])).key
  })
  afterAll(() => server.close())

  /** A project with a monitor on two platforms and `prompts` prompts. */
  const monitorWith = async (prompts: number, options: { readonly simulated?: boolean } = {}) => {
    const client = server.client(key)
    const project = (await client((api) => api.projects.create({ payload: { name: "Runs" } }))).data.id
    const headers = inProject(project)
    const monitor = (await client((api) =>
      api.monitors.create({ headers, payload: { name: "US", country: "US", platforms: ["chatgpt", "claude"], schedule: "manual", active: true, simulated: options.simulated ?? false } })
    )).data.id
    for (let i = 0; i < prompts; i++) {
      await client((api) => api.prompts.create({ headers, payload: { monitor_id: monitor, text: `Question ${i}?`, tags: [] } }))
    }
    return { project, monitor }
  }

  /** POST /monitors/{monitor}/runs: the run created. */
  const trigger = async (monitor: number, project: number) =>
    (await server.client(key)((api) => api.runs.trigger({ path: { monitor }, headers: inProject(project) }))).data
  /** GET /monitors/{monitor}/runs, its first page. */
  const runsOf = (monitor: number, project: number, as = key) =>
    server.client(as)((api) => api.runs.list({ path: { monitor }, headers: inProject(project), urlParams: {} }))

  it("POST triggers a run now: 202 with the run and a pending job per prompt × platform", async () => {
    await server.heartbeat({ providers: ["chatgpt", "claude"], simulated: [] })
    const { monitor, project } = await monitorWith(3)
    const before = Date.now()
    const reply = await server.request("POST", `/api/v1/monitors/${monitor}/runs`, { key, project })
    expect(reply.status, reply.text).toBe(202)
    const run = reply.body.data
    expect(Object.keys(run)).toEqual(["id", "monitor_id", "slot", "trigger", "status", "jobs", "blocked_platforms", "completed_at", "created_at", "updated_at"])
    expect(run).toMatchObject({
      monitor_id: monitor,
      trigger: "manual",
      status: "running",
      jobs: { total: 6, pending: 6, running: 0, succeeded: 0, failed: 0, skipped: 0 },
      blocked_platforms: [],
      completed_at: null
    })
    expect(run.slot).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    expect(Date.parse(run.slot)).toBeGreaterThanOrEqual(before - 1000)
  })

  it("a monitor without prompts gets a completed run with no job", async () => {
    const { monitor, project } = await monitorWith(0)
    const run = await trigger(monitor, project)
    expect(run).toMatchObject({ status: "completed", jobs: { total: 0 } })
    expect(run.completed_at).not.toBeNull()
  })

  it("GET lists the monitor's runs newest first, paginated, with their counts", async () => {
    const { monitor, project } = await monitorWith(1)
    const ids: Array<number> = []
    for (let i = 0; i < 3; i++) {
      ids.push((await trigger(monitor, project)).id)
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    const all = await runsOf(monitor, project)
    expect(all.data.map((run) => run.id)).toEqual([...ids].reverse())
    expect(all.data[0].jobs).toEqual({ total: 2, pending: 2, running: 0, succeeded: 0, failed: 0, skipped: 0 })
    const page = await server.request("GET", `/api/v1/monitors/${monitor}/runs?per_page=1&page=2`, { key, project })
    expect(page.body.data.map((run: any) => run.id)).toEqual([ids[1]])
    expect(page.body.meta).toMatchObject({ current_page: 2, last_page: 3, per_page: 1, total: 3, from: 2, to: 2 })
    expect(page.body.meta.path).toBe(`${server.baseUrl}/api/v1/monitors/${monitor}/runs`)
    expect(page.body.links.next).toBe(`${server.baseUrl}/api/v1/monitors/${monitor}/runs?per_page=1&page=3`)
    // Another monitor's runs are not in the list.
    const other = await monitorWith(1)
    const empty = await runsOf(other.monitor, other.project)
    expect(empty.data).toEqual([])
    expect(empty.meta.total).toBe(0)
  })

  it("answers 404 Monitor not found for a monitor of another project or organization, or none", async () => {
    const mine = await monitorWith(1)
    const sibling = await monitorWith(1)
    const otherOrg = (await server.createOrganization("Other")).id
    const otherKey = (await server.createKey(otherOrg, ["*"])).key
    const theirs = server.client(otherKey)
    const foreignProject = (await theirs((api) => api.projects.create({ payload: { name: "Theirs" } }))).data.id
    const foreign = (await theirs((api) =>
      api.monitors.create({
        headers: inProject(foreignProject),
        payload: { name: "Theirs", country: "FR", platforms: ["gemini"], schedule: "daily", active: true, simulated: false }
      })
    )).data.id
    for (const monitor of [sibling.monitor, foreign, 999_999, "abc", 0]) {
      for (const method of ["GET", "POST"]) {
        const reply = await server.request(method, `/api/v1/monitors/${monitor}/runs`, { key, project: mine.project })
        expect(reply.status, `${method} ${monitor}`).toBe(404)
        expect(reply.body, `${method} ${monitor}`).toEqual({ message: "Monitor not found" })
      }
    }
    // Nothing was created on the monitors named.
    expect((await runsOf(sibling.monitor, sibling.project)).meta.total).toBe(0)
    expect((await runsOf(foreign, foreignProject, otherKey)).meta.total).toBe(0)
  })

  it("needs monitors:read to list and monitors:write to trigger", async () => {
    const { monitor, project } = await monitorWith(1)
    const reader = (await server.createKey(organization, ["monitors:read"])).key
    const trigger = await server.request("POST", `/api/v1/monitors/${monitor}/runs`, { key: reader, project })
    expect(trigger.status).toBe(403)
    expect(trigger.body).toEqual({ message: "This action is unauthorized.", required_ability: "monitors:write" })
    expect((await server.request("GET", `/api/v1/monitors/${monitor}/runs`, { key: reader, project })).status).toBe(200)
    expect((await server.request("GET", `/api/v1/monitors/${monitor}/runs`, { project })).status).toBe(401)
  })

  it("ignores a body, and answers a body that is not JSON the same way", async () => {
    const { monitor, project } = await monitorWith(1)
    const withBody = await server.request("POST", `/api/v1/monitors/${monitor}/runs`, { key, project, body: { slot: "2020-01-01" } })
    expect(withBody.status).toBe(202)
    expect(Date.parse(withBody.body.data.slot)).toBeGreaterThan(Date.parse("2025-01-01"))
    const garbage = await server.request("POST", `/api/v1/monitors/${monitor}/runs`, { key, project, rawBody: "{not json" })
    expect(garbage.status).toBeLessThan(500)
  })

  it("deleting the monitor deletes its runs", async () => {
    const { monitor, project } = await monitorWith(2)
    await trigger(monitor, project)
    expect((await server.request("DELETE", `/api/v1/monitors/${monitor}`, { key, project })).status).toBe(204)
    expect((await server.request("GET", `/api/v1/monitors/${monitor}/runs`, { key, project })).status).toBe(404)
    if (server.sql) {
      expect(await server.sql(`SELECT id FROM collector_runs WHERE monitor_id = ${monitor}`)).toEqual([])
      expect(await server.sql(`SELECT j.id FROM collector_jobs j LEFT JOIN collector_runs r ON r.id = j.run_id WHERE r.id IS NULL`)).toEqual([])
    }
  })

  describe("blocked platforms: pending jobs no running worker can answer, and why", () => {
    const blockedOf = async (monitor: number, project: number) => (await runsOf(monitor, project)).data[0]!.blocked_platforms

    it("names every platform when no worker is running, on the 202 and in the list", async () => {
      await server.forgetWorkers()
      const { monitor, project } = await monitorWith(2)
      const reply = await server.request("POST", `/api/v1/monitors/${monitor}/runs`, { key, project })
      expect(reply.body.data.blocked_platforms).toEqual([
        { platform: "chatgpt", reason: "no collector worker is running" },
        { platform: "claude", reason: "no collector worker is running" }
      ])
      expect(await blockedOf(monitor, project)).toEqual(reply.body.data.blocked_platforms)
    })

    it("names the platforms without a provider key in any running worker", async () => {
      await server.forgetWorkers()
      await server.heartbeat({ id: "a", providers: ["chatgpt"], simulated: ["claude"] })
      const { monitor, project } = await monitorWith(1)
      expect((await trigger(monitor, project)).blocked_platforms).toEqual([{ platform: "claude", reason: "no provider key for claude" }])
      // Another worker with the key: nothing is blocked any more, on the same run.
      await server.heartbeat({ id: "b", providers: ["claude"], simulated: [] })
      expect(await blockedOf(monitor, project)).toEqual([])
    })

    it("a simulated monitor's jobs need a worker that simulates their platform, whatever keys there are", async () => {
      await server.forgetWorkers()
      await server.heartbeat({ providers: ["chatgpt", "claude"], simulated: ["chatgpt"] })
      const { monitor, project } = await monitorWith(1, { simulated: true })
      expect((await trigger(monitor, project)).blocked_platforms).toEqual([
        { platform: "claude", reason: "simulation is off for claude in every running worker" }
      ])
    })

    it("a worker silent for more than a minute is gone", async () => {
      await server.forgetWorkers()
      await server.heartbeat({ providers: ["chatgpt", "claude"], simulated: [] }, new Date(Date.now() - 61_000))
      const { monitor, project } = await monitorWith(1)
      expect((await trigger(monitor, project)).blocked_platforms.map((blocked) => blocked.reason)).toEqual([
        "no collector worker is running",
        "no collector worker is running"
      ])
    })

    it("a run with nothing pending has none", async () => {
      await server.forgetWorkers()
      const { monitor, project } = await monitorWith(0)
      expect((await trigger(monitor, project)).blocked_platforms).toEqual([])
    })
  })

  describe("GET /collector/health", () => {
    it("says whether a worker is alive, its last heartbeat, and what each platform is answered with", async () => {
      const { project } = await monitorWith(0)
      await server.forgetWorkers()
      const none = await server.request("GET", "/api/v1/collector/health", { key, project })
      expect(none.status).toBe(200)
      expect(none.body.data.workers).toEqual({ alive: 0, last_heartbeat_at: null })
      expect(none.body.data.platforms).toHaveLength(8)
      expect(none.body.data.platforms.every((p: any) => !p.provider_key && !p.simulation)).toBe(true)

      const old = new Date(Date.now() - 5 * 60_000)
      await server.heartbeat({ id: "old", providers: ["gemini"], simulated: ["gemini"] }, old)
      const stale = await server.request("GET", "/api/v1/collector/health", { key, project })
      expect(stale.body.data.workers).toEqual({ alive: 0, last_heartbeat_at: old.toISOString() })
      expect(stale.body.data.platforms.find((p: any) => p.platform === "gemini")).toEqual({ platform: "gemini", provider_key: false, simulation: false })

      const now = new Date()
      await server.heartbeat({ id: "one", providers: ["chatgpt", "perplexity"], simulated: ["claude"] }, now)
      await server.heartbeat({ id: "two", providers: ["perplexity"], simulated: [] }, new Date(now.getTime() - 1000))
      const live = await server.request("GET", "/api/v1/collector/health", { key, project })
      expect(Object.keys(live.body.data)).toEqual(["workers", "platforms"])
      expect(live.body.data.workers).toEqual({ alive: 2, last_heartbeat_at: now.toISOString() })
      expect(live.body.data.platforms).toEqual([
        { platform: "chatgpt", provider_key: true, simulation: false },
        { platform: "perplexity", provider_key: true, simulation: false },
        { platform: "gemini", provider_key: false, simulation: false },
        { platform: "grok", provider_key: false, simulation: false },
        { platform: "copilot", provider_key: false, simulation: false },
        { platform: "claude", provider_key: false, simulation: true },
        { platform: "google_ai_mode", provider_key: false, simulation: false },
        { platform: "google_ai_overview", provider_key: false, simulation: false }
      ])
      // The typed client decodes it with the endpoint's schema.
      const typed = await server.client(key)((api) => api.collector.health({ headers: inProject(project) }))
      expect(typed.data.workers.alive).toBe(2)
    })

    it("needs a key (401), monitors:read (403), the project header (400) and a project of the key (404)", async () => {
      const { project } = await monitorWith(0)
      expect((await server.request("GET", "/api/v1/collector/health", { project })).status).toBe(401)
      const tagsOnly = (await server.createKey(organization, ["tags:read"])).key
      const forbidden = await server.request("GET", "/api/v1/collector/health", { key: tagsOnly, project })
      expect(forbidden.status).toBe(403)
      expect(forbidden.body).toEqual({ message: "This action is unauthorized.", required_ability: "monitors:read" })
      const reader = (await server.createKey(organization, ["monitors:read"])).key
      expect((await server.request("GET", "/api/v1/collector/health", { key: reader, project })).status).toBe(200)
      const missing = await server.request("GET", "/api/v1/collector/health", { key: reader })
      expect(missing.status).toBe(400)
      expect(missing.body).toEqual({ message: "Missing required header Service-Project-Id" })
      const otherOrg = (await server.createOrganization("Elsewhere")).id
      const theirs = (await server.request("POST", "/api/v1/projects", { key: (await server.createKey(otherOrg, ["*"])).key, body: { name: "Theirs" } }))
      const foreign = await server.request("GET", "/api/v1/collector/health", { key: reader, project: theirs.body.data.id })
      expect(foreign.status).toBe(404)
      expect(foreign.body).toEqual({ message: "Project not found" })
    })
  })
})
