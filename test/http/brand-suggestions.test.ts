import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { platforms } from "../../src/Domain/Platform.ts"
import { evaluate, type CorpusProject, corpusProjects } from "../support/SuggestionCorpus.ts"
import { backends, startServer, type TestServer } from "../support/TestServer.ts"

/**
 * Brand suggestions over HTTP (docs/api.md, "Brand suggestions"): the list against the suggestion core
 * run on the same answers (test/support/SuggestionCorpus.ts), every status, the decisions, the backfill
 * against an independent whole-word count, analytics after accept against a project that tracked the
 * brand from the start, the untracked share's counts, tenancy, abilities and 422s.
 */

const DAY = 86_400_000
const today = new Date().toISOString().slice(0, 10)
const dayOffset = (offset: number) => new Date(Date.now() + offset * DAY).toISOString().slice(0, 10)
/** The corpus' days (2026-11-02..14) moved so that the last is yesterday. */
const shift = Math.floor((Date.parse(`${today}T00:00:00Z`) - Date.parse("2026-11-15T00:00:00Z")) / DAY)
const movedDay = (day: string) => new Date(Date.parse(`${day}T12:00:00Z`) + shift * DAY).toISOString()
const WINDOW = `start_date=${dayOffset(-40)}&end_date=${today}`

const crm = corpusProjects.find((p) => p.id === "crm")!

/** Whole word, case-insensitively, as brand detection reads names. */
const namesWord = (names: ReadonlyArray<string>) =>
  new RegExp(`(?<![\\p{L}\\p{N}])(?:${names.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})(?![\\p{L}\\p{N}])`, "iu")

for (const backend of backends) {
  describe(`brand suggestions (${backend})`, () => {
    let server: TestServer
    let key: string
    let readOnly: string
    let stranger: string
    const call = (method: string, path: string, project: number, body?: unknown, as: string = key) =>
      server.request(method, path, { key: as, project, body })

    /** A project holding a corpus project's prompts and answers; `extra` brands tracked before the answers come. */
    const seed = async (corpus: CorpusProject, extra: ReadonlyArray<Record<string, unknown>> = []) => {
      const project = (await server.request("POST", "/api/v1/projects", { key, body: { name: corpus.id } })).body.data.id as number
      const monitor = (await call("POST", "/api/v1/monitors", project, {
        name: "M",
        country: "US",
        platforms,
        schedule: "daily",
        active: false,
        simulated: false
      })).body.data.id
      const prompts = new Map<string, number>()
      for (const [id, text] of Object.entries(corpus.prompts)) {
        prompts.set(id, (await call("POST", "/api/v1/prompts", project, { monitor_id: monitor, text, tags: [] })).body.data.id)
      }
      for (const brand of [...corpus.tracked.map(({ id: _, ...b }) => b), ...extra]) {
        const reply = await call("POST", "/api/v1/brands", project, { segment_ids: [], ...brand })
        expect(reply.status, reply.text).toBe(201)
      }
      for (const answer of corpus.answers) {
        const reply = await call("POST", "/api/v1/responses", project, {
          prompt_id: prompts.get(String(answer.prompt)),
          platform: answer.platform,
          text: answer.text,
          ...(answer.citations === null ? {} : { citations: answer.citations }),
          collected_at: movedDay(answer.day)
        })
        expect(reply.status, reply.text).toBe(201)
      }
      return project
    }
    const list = async (project: number, query = "") => {
      const reply = await call("GET", `/api/v1/brand-suggestions?${WINDOW}&per_page=100${query}`, project)
      expect(reply.status, reply.text).toBe(200)
      return reply.body.data as Array<any>
    }
    const waitForBackfill = async (project: number, id: number) => {
      for (let i = 0; i < 200; i++) {
        const reply = await call("GET", `/api/v1/brand-suggestions/${id}`, project)
        if (reply.body.data.backfill?.status === "done") return reply.body.data
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      throw new Error("the backfill did not end")
    }

    let project: number
    beforeAll(async () => {
      server = await startServer(backend)
      const organization = await server.createOrganization("Acme")
      key = (await server.createKey(organization.id, ["*"])).key
      readOnly = (await server.createKey(organization.id, ["brands:read"])).key
      stranger = (await server.createKey((await server.createOrganization("Other")).id, ["*"])).key
      project = await seed(crm)
    }, 120_000)
    afterAll(() => server.close())

    it("lists the gated candidates as the suggestion core ranks them on the same answers, with their evidence", async () => {
      const rows = await list(project)
      expect(rows.map((r) => r.key)).toEqual(evaluate([crm]).suggestions.crm)
      const first = rows[0]
      expect(Object.keys(first)).toEqual([
        "id", "key", "name", "status", "variants", "domains", "answers_count", "responses_count", "rate", "rate_ci", "prompts_count",
        "platforms", "list_share", "lift", "average_order", "passes_gate", "gate_failures", "why", "examples", "first_seen_on",
        "last_seen_on", "brand_id", "backfill"
      ])
      for (const row of rows) {
        expect(row.status).toBe("open")
        expect(row.passes_gate).toBe(true)
        expect(row.responses_count).toBe(crm.answers.length)
        expect(row.rate).toBe(Math.round((10000 * row.answers_count) / row.responses_count) / 100)
        expect(row.answers_count).toBeGreaterThanOrEqual(3)
        expect(row.prompts_count).toBeGreaterThanOrEqual(2)
        expect(row.examples.length).toBeGreaterThan(0)
        expect(row.examples.length).toBeLessThanOrEqual(3)
        for (const example of row.examples) {
          const name = example.snippet.slice(example.highlight.start, example.highlight.end)
          expect(row.variants.map((v: any) => v.name.toLowerCase())).toContain(name.toLowerCase())
        }
      }
      // Ranked by the lower bound of rate_ci.
      expect(rows.map((r) => r.rate_ci.low)).toEqual([...rows.map((r) => r.rate_ci.low)].sort((a, b) => b - a))
    })

    it("narrows by the window and the filters, and reads one suggestion with or without a window", async () => {
      expect(await list(project, "&platforms[]=grok")).toEqual([])
      const empty = await call("GET", `/api/v1/brand-suggestions?start_date=${today}&end_date=${today}`, project)
      expect(empty.body.meta.total).toBe(0)
      const [row] = await list(project)
      const one = await call("GET", `/api/v1/brand-suggestions/${row.id}`, project)
      expect(one.status).toBe(200)
      expect(one.body.data).toEqual(row)
    })

    it("answers 422 for a bad window or status, 404 for another project's suggestion, 403 without the ability", async () => {
      const missing = await call("GET", "/api/v1/brand-suggestions", project)
      expect(missing.status).toBe(422)
      expect(Object.keys(missing.body.errors)).toEqual(["start_date", "end_date"])
      const status = await call("GET", `/api/v1/brand-suggestions?${WINDOW}&status=maybe`, project)
      expect(status.status).toBe(422)
      expect(status.body.errors.status).toBeDefined()

      const [row] = await list(project)
      const other = (await server.request("POST", "/api/v1/projects", { key, body: { name: "Other" } })).body.data.id
      expect((await call("GET", `/api/v1/brand-suggestions/${row.id}`, other)).status).toBe(404)
      expect((await call("POST", `/api/v1/brand-suggestions/${row.id}/dismiss`, other)).status).toBe(404)
      // Another organization's key does not see the project at all.
      expect((await call("GET", `/api/v1/brand-suggestions/${row.id}`, project, undefined, stranger)).status).toBe(404)
      expect((await call("GET", `/api/v1/brand-suggestions/999999`, project)).status).toBe(404)

      expect((await call("GET", `/api/v1/brand-suggestions?${WINDOW}`, project, undefined, readOnly)).status).toBe(200)
      expect((await call("POST", `/api/v1/brand-suggestions/${row.id}/dismiss`, project, undefined, readOnly)).status).toBe(403)
      expect((await call("POST", `/api/v1/brand-suggestions/${row.id}/accept`, project, {}, readOnly)).status).toBe(403)
      expect((await call("GET", `/api/v1/analytics/brands/untracked-share?${WINDOW}`, project, undefined, readOnly)).status).toBe(403)
    })

    it("the untracked share counts the open suggestions' mentions against the counted brands'", async () => {
      const open = await list(project)
      const brands = await call("GET", `/api/v1/analytics/brands?${WINDOW}`, project)
      const reply = await call("GET", `/api/v1/analytics/brands/untracked-share?${WINDOW}`, project)
      expect(reply.status, reply.text).toBe(200)
      const untracked = open.reduce((sum, r) => sum + r.answers_count, 0)
      const tracked = brands.body.data[0].total_mentions
      expect(reply.body.data).toMatchObject({
        responses_count: crm.answers.length,
        candidates_count: open.length,
        untracked_mentions: untracked,
        tracked_mentions: tracked,
        total_mentions: untracked + tracked,
        share: Math.round((10000 * untracked) / (untracked + tracked)) / 100
      })
      expect(reply.body.data.share_ci.low).toBeLessThan(reply.body.data.share)
      expect(reply.body.data.share_ci.high).toBeGreaterThan(reply.body.data.share)
    })

    it("dismiss is remembered, ignore creates an ignored brand, merge adds the spellings as aliases", async () => {
      const [a, b, c] = await list(project)
      const dismissed = await call("POST", `/api/v1/brand-suggestions/${a.id}/dismiss`, project)
      expect(dismissed.status, dismissed.text).toBe(200)
      expect(dismissed.body.data.status).toBe("dismissed")
      expect((await list(project)).map((r) => r.id)).not.toContain(a.id)
      expect((await list(project, "&status=dismissed")).map((r) => r.id)).toEqual([a.id])

      const ignored = await call("POST", `/api/v1/brand-suggestions/${b.id}/ignore`, project)
      expect(ignored.status, ignored.text).toBe(201)
      expect(ignored.body.data.brand).toMatchObject({ name: b.name, classification: "ignored" })
      expect((await list(project, "&status=ignored")).map((r) => r.id)).toEqual([b.id])
      expect((await call("POST", `/api/v1/brand-suggestions/${b.id}/accept`, project, {})).status).toBe(422)

      const hubspot = (await call("GET", "/api/v1/brands", project)).body.data.find((x: any) => x.name === "HubSpot")
      const badMerge = await call("POST", `/api/v1/brand-suggestions/${c.id}/merge`, project, { brand_id: 999999 })
      expect(badMerge.status).toBe(422)
      expect(badMerge.body.errors.brand_id).toBeDefined()
      const merged = await call("POST", `/api/v1/brand-suggestions/${c.id}/merge`, project, { brand_id: hubspot.id })
      expect(merged.status, merged.text).toBe(200)
      for (const variant of c.variants) {
        if (variant.name.toLowerCase() !== "hubspot") expect(merged.body.data.brand.aliases).toContain(variant.name)
      }
      const done = await waitForBackfill(project, c.id)
      expect(done.status).toBe("merged")
      expect((await list(project)).map((r) => r.id)).not.toContain(c.id)
      expect((await list(project, "&status=merged")).map((r) => r.id)).toEqual([c.id])
    })

    it("two decisions at once: one is made, the other is told the suggestion is decided, and one brand is created", async () => {
      const [row] = await list(project)
      const brandsBefore = (await call("GET", "/api/v1/brands?per_page=100", project)).body.meta.total
      const replies = await Promise.all([
        call("POST", `/api/v1/brand-suggestions/${row.id}/accept`, project, { domains: [] }),
        call("POST", `/api/v1/brand-suggestions/${row.id}/ignore`, project)
      ])
      expect(replies.map((r) => r.status).sort()).toEqual([201, 422])
      expect(replies.find((r) => r.status === 422)!.body.errors.status).toBeDefined()
      expect((await call("GET", "/api/v1/brands?per_page=100", project)).body.meta.total).toBe(brandsBefore + 1)
      const decided = (await call("GET", `/api/v1/brand-suggestions/${row.id}`, project)).body.data
      expect(["accepted", "ignored"]).toContain(decided.status)
      if (decided.status === "accepted") await waitForBackfill(project, row.id)
    })

    it("a dismissed suggestion stays dismissed until the lower bound of its rate over every answer has doubled", async () => {
      const fresh = await seed(crm)
      const last = (await list(fresh)).at(-1)
      const dismissed = await call("POST", `/api/v1/brand-suggestions/${last.id}/dismiss`, fresh)
      expect(dismissed.body.data.status).toBe("dismissed")
      const prompts = (await call("GET", "/api/v1/prompts", fresh)).body.data.map((p: any) => p.id)
      const more = async (n: number) => {
        for (let i = 0; i < n; i++) {
          const reply = await call("POST", "/api/v1/responses", fresh, {
            prompt_id: prompts[i % 2],
            platform: i % 2 === 0 ? "chatgpt" : "gemini",
            text: `1. **${last.name}**: simple.\n2. **Acme Widgets**: cheap.`
          })
          expect(reply.status, reply.text).toBe(201)
        }
      }
      // A little more evidence: still dismissed.
      await more(1)
      expect((await list(fresh)).map((r) => r.id)).not.toContain(last.id)
      expect((await list(fresh, "&status=dismissed")).map((r) => r.id)).toContain(last.id)
      // Much more: its rate's lower bound has at least doubled, it is open again.
      await more(12)
      const again = (await list(fresh)).find((r) => r.id === last.id)
      expect(again?.status).toBe("open")
      expect((await call("GET", `/api/v1/brand-suggestions/${last.id}`, fresh)).body.data.status).toBe("open")
    })

    it("accept creates the brand and backfills its mentions: the count and the analytics are those of a brand tracked from the start", async () => {
      const fresh = await seed(crm)
      const [row] = await list(fresh)
      const accepted = await call("POST", `/api/v1/brand-suggestions/${row.id}/accept`, fresh, { domains: [] })
      expect(accepted.status, accepted.text).toBe(201)
      const brand = accepted.body.data.brand
      expect(brand).toMatchObject({ name: row.name, classification: "competitor", domains: [] })
      expect(accepted.body.data.backfill).toEqual({ status: "running", backfilled_responses: 0 })
      const done = await waitForBackfill(fresh, row.id)
      expect(done.status).toBe("accepted")
      expect(done.brand_id).toBe(brand.id)

      // Independent: the stored answers writing its name or an alias as a whole word.
      const word = namesWord([brand.name, ...brand.aliases])
      expect(done.backfill.backfilled_responses).toBe(crm.answers.filter((a) => word.test(a.text)).length)
      expect(done.backfill.backfilled_responses).toBeGreaterThan(0)

      // The same answers in a project that tracked the brand from the start.
      const tracked = await seed(crm, [{ name: brand.name, aliases: brand.aliases, domains: [], classification: "competitor" }])
      const analytics = async (p: number) =>
        ((await call("GET", `/api/v1/analytics/brands?${WINDOW}&sort_by=name&sort_order=asc`, p)).body.data as Array<any>)
          .map(({ brand: { id: _, ...ref }, ...row }) => ({ ...ref, ...row }))
      expect(await analytics(fresh)).toEqual(await analytics(tracked))
      expect((await list(fresh)).map((r) => r.key)).not.toContain(row.key)
      expect((await list(fresh, "&status=accepted")).map((r) => r.id)).toEqual([row.id])
    })
  })
}
