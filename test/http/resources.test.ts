import { readFileSync } from "node:fs"
import type { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Monitor } from "../../src/Domain/Monitor.ts"
import type { Tag } from "../../src/Domain/Tag.ts"
import type { CreateMonitor } from "../../src/Monitors/Api.ts"
import { type ApiClient, inProject } from "../support/ApiClient.ts"
import { backends, startServer, type TestServer } from "../support/TestServer.ts"

/**
 * Every endpoint's success path and the semantics documented in docs/api.md:
 * statuses, the `{"data": ...}` wrapping, exact field sets, timestamps, and the rules of each resource.
 *
 * Values are read through the API's typed client: each answer is decoded with its endpoint's schema,
 * and only under the status the endpoint declares (201 for a create, 200 for a read, an update, an
 * attach or a detach, 204 for a delete). Raw requests stay for what only the wire shows, at least once
 * per endpoint: the status asserted on its own, `{"data": ...}` and nothing else, the exact field set,
 * the timestamp format, the pagination envelope, 4xx bodies; and for input the server normalises
 * (untrimmed text, another case, repeats, omitted fields with a default), which the typed client
 * cannot send: it encodes a payload from the type the server decodes it to.
 */

const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/
const COLOR = /^#[0-9a-f]{6}$/

const FIELDS = {
  organization: ["id", "name", "created_at", "updated_at"],
  project: ["id", "organization_id", "name", "domain", "brand_id", "created_at", "updated_at"],
  monitor: ["id", "project_id", "name", "country", "platforms", "schedule", "active", "simulated", "created_at", "updated_at"],
  prompt: ["id", "monitor_id", "text", "tags", "created_at", "updated_at"],
  tag: ["id", "name", "color", "created_at", "updated_at"]
} as const

type Kind = keyof typeof FIELDS

/**
 * Every ability, in the order of the table in docs/api.md ("| ability | grants |"): `GET /me` shows `*`
 * expanded in that order. Read from the docs, so that the service and its documentation cannot drift.
 */
const ALL_ABILITIES = (() => {
  const docs = readFileSync(new URL("../../docs/api.md", import.meta.url), "utf8")
  const table = docs.slice(docs.indexOf("| ability | grants |"))
  const rows = table.split("\n").slice(2).filter((line) => line.startsWith("|"))
  const end = rows.findIndex((row) => !row.startsWith("| `"))
  return (end === -1 ? rows : rows.slice(0, end))
    .flatMap((row) => [...row.split("|")[1]!.matchAll(/`([a-z-]+:[a-z]+)`/g)].map((match) => match[1]!))
})()

const INVALID = "The given data was invalid."

/** The exact field set of a resource, with well-formed timestamps (and, for prompts, well-formed tags). */
const expectResource = (kind: Kind, value: any) => {
  expect(value).toBeTypeOf("object")
  expect(Object.keys(value).sort()).toEqual([...FIELDS[kind]].sort())
  expect(value.id).toBeTypeOf("number")
  expect(Number.isInteger(value.id) && value.id > 0).toBe(true)
  expect(value.created_at).toMatch(TIMESTAMP)
  expect(value.updated_at).toMatch(TIMESTAMP)
  if (kind === "prompt") {
    expect(Array.isArray(value.tags)).toBe(true)
    for (const tag of value.tags) expectResource("tag", tag)
  }
  if (kind === "tag") expect(value.color).toMatch(COLOR)
}

/** A single-resource reply: the status, `{"data": ...}` and nothing else, the data's field set. */
const expectData = (reply: { status: number; body: any }, status: number, kind: Kind) => {
  expect(reply.status, JSON.stringify(reply.body)).toBe(status)
  expect(Object.keys(reply.body)).toEqual(["data"])
  expectResource(kind, reply.body.data)
  return reply.body.data
}

const expectNoContent = (reply: { status: number; text: string }) => {
  expect(reply.status, reply.text).toBe(204)
  expect(reply.text).toBe("")
}

const expectInvalid = (reply: { status: number; body: any }, fields: ReadonlyArray<string>) => {
  expect(reply.status, JSON.stringify(reply.body)).toBe(422)
  expect(Object.keys(reply.body).sort()).toEqual(["errors", "message"])
  expect(reply.body.message).toBe(INVALID)
  for (const field of fields) {
    expect(reply.body.errors, JSON.stringify(reply.body)).toHaveProperty([field])
    expect(Array.isArray(reply.body.errors[field])).toBe(true)
    expect(reply.body.errors[field].length).toBeGreaterThan(0)
    for (const text of reply.body.errors[field]) expect(text).toBeTypeOf("string")
  }
}

const expectNotFound = (reply: { status: number; body: any }, message: string) => {
  expect(reply.status, JSON.stringify(reply.body)).toBe(404)
  expect(reply.body).toEqual({ message })
}

const ids = (list: ReadonlyArray<{ id: number }>) => list.map((item) => item.id)
const names = (list: ReadonlyArray<{ name: string }>) => list.map((item) => item.name)

/** A decoded value as JSON carries it (dates as ISO strings), to compare with a raw reply's body. */
const asJson = (value: unknown) => JSON.parse(JSON.stringify(value))

describe.each(backends)("resources (%s)", (backend) => {
  let server: TestServer
  let organization: { id: number; name: string }
  let key: string

  beforeAll(async () => {
    server = await startServer(backend)
    organization = await server.createOrganization("Resources Org")
    key = (await server.createKey(organization.id, ["*"])).key
  })
  afterAll(() => server.close())

  const raw = (method: string, path: string, options: { project?: number; body?: unknown; key?: string } = {}) =>
    server.request(method, `/api/v1${path}`, { key: options.key ?? key, project: options.project, body: options.body })

  /** Calls of the typed client with the suite's key. */
  const client = <A, E>(use: (api: ApiClient) => Effect.Effect<A, E>) => server.client(key)(use)

  let projectCount = 0
  const newProject = async (name = `Project ${++projectCount}`, as = key) =>
    (await server.client(as)((api) => api.projects.create({ payload: { name } }))).data
  const newMonitor = async (project: number, fields: Partial<typeof CreateMonitor.Type> = {}) =>
    (await client((api) =>
      api.monitors.create({
        headers: inProject(project),
        payload: { name: "Monitor", country: "US", platforms: ["chatgpt"], schedule: "daily", active: true, simulated: false, ...fields }
      })
    )).data
  const newPrompt = async (project: number, fields: { monitor_id: number; text: string; tags?: ReadonlyArray<number> }) =>
    (await client((api) => api.prompts.create({ headers: inProject(project), payload: { tags: [], ...fields } }))).data
  const newTag = async (project: number, payload: { name: string; color?: string }) =>
    (await client((api) => api.tags.create({ headers: inProject(project), payload }))).data
  /** The first page of a project's tags: the three seeded ones first. */
  const seededTags = async (project: number) =>
    (await client((api) => api.tags.list({ headers: inProject(project), urlParams: {} }))).data

  const readProject = async (project: number) => (await client((api) => api.project.get({ path: { project } }))).data
  const readMonitor = async (project: number, monitor: number) =>
    (await client((api) => api.monitors.get({ path: { monitor }, headers: inProject(project) }))).data
  const readPrompt = async (project: number, prompt: number) =>
    (await client((api) => api.prompts.get({ path: { prompt }, headers: inProject(project) }))).data
  const readTag = async (project: number, tag: number) =>
    (await client((api) => api.tags.get({ path: { tag }, headers: inProject(project) }))).data

  describe("GET /me", () => {
    it("shows the key, its organization, `*` expanded to every ability, and every project", async () => {
      const org = await server.createOrganization("Me Org")
      const expiresAt = new Date(Date.now() + 86_400_000)
      const created = await server.createKey(org.id, ["*"], { name: "me key", expiresAt })
      const p1 = await newProject("Me One", created.key)
      const p2 = await newProject("Me Two", created.key)

      const first = await raw("GET", "/me", { key: created.key })
      expect(first.status).toBe(200)
      expect(Object.keys(first.body)).toEqual(["data"])
      const data = first.body.data
      expect(Object.keys(data).sort()).toEqual(["abilities", "key", "organization", "projects"])
      expect(Object.keys(data.key).sort()).toEqual(["created_at", "expires_at", "id", "last_used_at", "name", "prefix"].sort())
      expect(data.key.id).toBe(created.id)
      expect(data.key.name).toBe("me key")
      expect(data.key.prefix).toBe(created.key.slice(0, 8))
      expect(data.key.created_at).toMatch(TIMESTAMP)
      expect(data.key.expires_at).toBe(expiresAt.toISOString())
      expect(data.organization).toEqual({ id: org.id, name: "Me Org" })
      expect(data.abilities).toEqual(ALL_ABILITIES)
      expect(ALL_ABILITIES.slice(0, 2)).toEqual(["organization:read", "organization:manage"])
      expect(ALL_ABILITIES.length).toBeGreaterThanOrEqual(20)
      expect(data.abilities).toContain("responses:write")
      expect(data.projects).toEqual([{ id: p1.id, name: "Me One" }, { id: p2.id, name: "Me Two" }])

      // The key was used by the POSTs above and by the first GET: the second GET shows the use.
      const second = await raw("GET", "/me", { key: created.key })
      expect(second.status).toBe(200)
      expect(second.body.data.key.last_used_at).toMatch(TIMESTAMP)
      expect(second.body.data.key.expires_at).toBe(expiresAt.toISOString())
    })

    it("sets last_used_at once a fresh key has been used", async () => {
      const org = await server.createOrganization("Fresh Org")
      const created = await server.createKey(org.id, ["projects:read"])
      const me = server.client(created.key)
      const first = (await me((api) => api.me.me())).data
      expect(first.key.expires_at).toBeNull()
      const second = (await me((api) => api.me.me())).data
      expect(second.key.last_used_at).toBeInstanceOf(Date)
      const usedAt = second.key.last_used_at!.getTime()
      expect(usedAt).toBeLessThanOrEqual(Date.now() + 1000)
      expect(usedAt).toBeGreaterThan(Date.now() - 60_000)
    })

    it("shows exactly the explicit abilities of a key, and only its allowed projects", async () => {
      const org = await server.createOrganization("Limited Org")
      const admin = (await server.createKey(org.id, ["*"])).key
      const p1 = await newProject("Limited One", admin)
      const p2 = await newProject("Limited Two", admin)
      await newProject("Limited Three", admin)
      const limited = await server.createKey(org.id, ["projects:read", "tags:read", "prompts:write"], {
        projectIds: [p2.id]
      })
      const me = (await server.client(limited.key)((api) => api.me.me())).data
      expect([...me.abilities].sort()).toEqual(["projects:read", "prompts:write", "tags:read"])
      expect(me.abilities).not.toContain("*")
      expect(me.projects).toEqual([{ id: p2.id, name: "Limited Two" }])
      expect(me.organization).toEqual({ id: org.id, name: "Limited Org" })

      const two = await server.createKey(org.id, ["monitors:read"], { projectIds: [p2.id, p1.id] })
      const twoMe = (await server.client(two.key)((api) => api.me.me())).data
      expect(twoMe.abilities).toEqual(["monitors:read"])
      expect(twoMe.projects).toEqual([{ id: p1.id, name: "Limited One" }, { id: p2.id, name: "Limited Two" }])
    })
  })

  describe("organization", () => {
    it("GET /organization returns the key's organization", async () => {
      const reply = await raw("GET", "/organization")
      const data = expectData(reply, 200, "organization")
      expect(data.id).toBe(organization.id)
      expect(data.name).toBe("Resources Org")
    })

    it("PATCH /organization renames (trimmed); an omitted name keeps it", async () => {
      const org = await server.createOrganization("Old Name")
      const orgKey = (await server.createKey(org.id, ["organization:read", "organization:manage"])).key
      const renamed = expectData(await raw("PATCH", "/organization", { key: orgKey, body: { name: "  New Name  " } }), 200, "organization")
      expect(renamed).toMatchObject({ id: org.id, name: "New Name" })
      const orgClient = server.client(orgKey)
      const kept = (await orgClient((api) => api.organization.update({ payload: {} }))).data
      expect(kept).toMatchObject({ id: org.id, name: "New Name" })
      const read = (await orgClient((api) => api.organization.get())).data
      expect(read.name).toBe("New Name")
    })
  })

  describe("projects", () => {
    it("POST /projects creates a project in the key's organization (201), seeded with three tags", async () => {
      const reply = await raw("POST", "/projects", { body: { name: "  Seeded  ", domain: "Example.COM" } })
      const project = expectData(reply, 201, "project")
      expect(project).toMatchObject({ organization_id: organization.id, name: "Seeded", domain: "example.com", brand_id: null })

      // Raw: the seeded tags' field sets and timestamps on the wire.
      const seeded = await raw("GET", "/tags", { project: project.id })
      expect(seeded.status).toBe(200)
      const tags = seeded.body.data
      expect(names(tags)).toEqual(["branded", "non-branded", "review"])
      const tagIds = ids(tags)
      expect([...tagIds].sort((a, b) => a - b)).toEqual(tagIds)
      for (const tag of tags) expectResource("tag", tag)

      const noDomain = (await client((api) => api.projects.create({ payload: { name: "No domain" } }))).data
      expect(noDomain.domain).toBeNull()
    })

    it("GET /projects lists them and GET /projects/{project} reads one", async () => {
      const a = await newProject("List A")
      const b = await newProject("List B")
      const list = await raw("GET", "/projects?per_page=100")
      expect(list.status).toBe(200)
      expect(Object.keys(list.body)).toEqual(["data", "links", "meta"])
      for (const project of list.body.data) expectResource("project", project)
      const listed = ids(list.body.data)
      expect(listed).toContain(a.id)
      expect(listed).toContain(b.id)
      expect([...listed].sort((x, y) => x - y)).toEqual(listed)
      expect(list.body.data.every((project: any) => project.organization_id === organization.id)).toBe(true)
      expect(list.body.meta.total).toBe(list.body.data.length)

      const one = expectData(await raw("GET", `/projects/${a.id}`), 200, "project")
      expect(one).toEqual(asJson(a))
    })

    it("PATCH /projects/{project} updates a subset; omitted fields keep their value; null clears", async () => {
      const created = (await client((api) => api.projects.create({ payload: { name: "Patch me", domain: "patch.example" } }))).data

      const renamed = expectData(await raw("PATCH", `/projects/${created.id}`, { body: { name: " Patched " } }), 200, "project")
      expect(renamed).toMatchObject({ id: created.id, name: "Patched", domain: "patch.example", brand_id: null })

      const redomained = expectData(
        await raw("PATCH", `/projects/${created.id}`, { body: { domain: "New.Example" } }),
        200,
        "project"
      )
      expect(redomained).toMatchObject({ name: "Patched", domain: "new.example", brand_id: null })

      const update = async (payload: { domain?: null; brand_id?: null }) =>
        (await client((api) => api.project.update({ path: { project: created.id }, payload }))).data
      const cleared = await update({ domain: null })
      expect(cleared).toMatchObject({ name: "Patched", domain: null, brand_id: null })

      const noBrand = await update({ brand_id: null })
      expect(noBrand).toMatchObject({ name: "Patched", domain: null, brand_id: null })

      const empty = await update({})
      expect(empty).toMatchObject({ name: "Patched", domain: null, brand_id: null })

      const read = await readProject(created.id)
      expect(read).toMatchObject({ name: "Patched", domain: null, brand_id: null })
    })

    it("PATCH brand_id of a nonexistent brand is a 422 naming brand_id", async () => {
      const project = await newProject()
      const reply = await raw("PATCH", `/projects/${project.id}`, { body: { brand_id: 987654 } })
      expectInvalid(reply, ["brand_id"])
      const read = await readProject(project.id)
      expect(read.brand_id).toBeNull()
    })

    it("PATCH brand_id accepts a brand of the project and refuses another project's brand (SQL data)", async () => {
      const project = await newProject()
      const other = await newProject()
      if (server.sql === undefined) {
        // The memory backend has no way to create brands yet: a brand id is then never one of the project's.
        expectInvalid(await raw("PATCH", `/projects/${project.id}`, { body: { brand_id: 1 } }), ["brand_id"])
        return
      }
      const [own] = await server.sql(`INSERT INTO brands (project_id, name) VALUES (${project.id}, 'Own') RETURNING id`)
      const [foreign] = await server.sql(`INSERT INTO brands (project_id, name) VALUES (${other.id}, 'Foreign') RETURNING id`)
      const update = async (payload: { name?: string; brand_id?: number | null }) =>
        (await client((api) => api.project.update({ path: { project: project.id }, payload }))).data
      const set = await update({ brand_id: own!.id as number })
      expect(set.brand_id).toBe(own!.id)
      expectInvalid(await raw("PATCH", `/projects/${project.id}`, { body: { brand_id: foreign!.id } }), ["brand_id"])
      const kept = await update({ name: "Still branded" })
      expect(kept.brand_id).toBe(own!.id)
      const unset = await update({ brand_id: null })
      expect(unset.brand_id).toBeNull()
    })

    it("DELETE /projects/{project} answers 204 with an empty body; the project is gone", async () => {
      const project = await newProject()
      expectNoContent(await raw("DELETE", `/projects/${project.id}`))
      expectNotFound(await raw("GET", `/projects/${project.id}`), "Project not found")
      const list = await client((api) => api.projects.list({ urlParams: { per_page: "100" } }))
      expect(ids(list.data)).not.toContain(project.id)
    })
  })

  describe("monitors", () => {
    let project: number
    beforeAll(async () => {
      project = (await newProject("Monitors")).id
    })

    it("POST /monitors stores the country upper-case, dedupes platforms in order, defaults schedule, active and simulated", async () => {
      const reply = await raw("POST", "/monitors", {
        project,
        body: { name: "  Germany  ", country: "de", platforms: ["gemini", "chatgpt", "gemini", "claude", "chatgpt"] }
      })
      const monitor = expectData(reply, 201, "monitor")
      expect(monitor).toMatchObject({
        project_id: project,
        name: "Germany",
        country: "DE",
        platforms: ["gemini", "chatgpt", "claude"],
        schedule: "daily",
        active: true,
        simulated: false
      })

      const explicit = await newMonitor(project, {
        name: "Manual",
        country: "FR",
        platforms: ["google_ai_overview"],
        schedule: "manual",
        active: false,
        simulated: true
      })
      expect(explicit).toMatchObject({ country: "FR", platforms: ["google_ai_overview"], schedule: "manual", active: false, simulated: true })
      expect(await readMonitor(project, explicit.id)).toMatchObject({ simulated: true })
    })

    it("PATCH /monitors/{monitor} turns simulation on and off, and keeps it when not named", async () => {
      const created = await newMonitor(project, { name: "Simulated later" })
      expect(created.simulated).toBe(false)
      const on = expectData(await raw("PATCH", `/monitors/${created.id}`, { project, body: { simulated: true } }), 200, "monitor")
      expect(on).toMatchObject({ id: created.id, simulated: true, active: true })
      const renamed = expectData(await raw("PATCH", `/monitors/${created.id}`, { project, body: { name: "Renamed" } }), 200, "monitor")
      expect(renamed).toMatchObject({ name: "Renamed", simulated: true })
      const off = expectData(await raw("PATCH", `/monitors/${created.id}`, { project, body: { simulated: false } }), 200, "monitor")
      expect(off.simulated).toBe(false)
      expect(await readMonitor(project, created.id)).toMatchObject({ simulated: false })
    })

    it("GET /monitors lists and GET /monitors/{monitor} reads", async () => {
      const own = await raw("GET", "/monitors", { project })
      expect(own.status).toBe(200)
      expect(Object.keys(own.body)).toEqual(["data", "links", "meta"])
      for (const monitor of own.body.data) {
        expectResource("monitor", monitor)
        expect(monitor.project_id).toBe(project)
      }
      expect(own.body.data.length).toBeGreaterThanOrEqual(2)
      const listed = ids(own.body.data)
      expect([...listed].sort((a, b) => a - b)).toEqual(listed)

      const one = expectData(await raw("GET", `/monitors/${listed[0]}`, { project }), 200, "monitor")
      expect(one).toEqual(own.body.data[0])
    })

    it("PATCH /monitors/{monitor} updates a subset; omitted fields keep their value", async () => {
      const created = await newMonitor(project, { name: "Patch", country: "GB", platforms: ["perplexity", "grok"] })
      const paused = (await client((api) =>
        api.monitors.update({ path: { monitor: created.id }, headers: inProject(project), payload: { active: false } })
      )).data
      expect(paused).toMatchObject({
        id: created.id,
        name: "Patch",
        country: "GB",
        platforms: ["perplexity", "grok"],
        schedule: "daily",
        active: false
      })
      const moved = expectData(
        await raw("PATCH", `/monitors/${created.id}`, {
          project,
          body: { country: "it", schedule: "weekly", platforms: ["copilot", "copilot", "google_ai_mode"] }
        }),
        200,
        "monitor"
      )
      expect(moved).toMatchObject({
        name: "Patch",
        country: "IT",
        platforms: ["copilot", "google_ai_mode"],
        schedule: "weekly",
        active: false
      })
      const read = await readMonitor(project, created.id)
      expect(asJson(read)).toEqual(moved)
    })

    it("refuses an invalid country, empty platforms and unknown platforms with a 422", async () => {
      const base = { name: "Bad", country: "us", platforms: ["chatgpt"] }
      expectInvalid(await raw("POST", "/monitors", { project, body: { ...base, country: "XX" } }), ["country"])
      expectInvalid(await raw("POST", "/monitors", { project, body: { ...base, country: "USA" } }), ["country"])
      expectInvalid(await raw("POST", "/monitors", { project, body: { ...base, platforms: [] } }), ["platforms"])
      const unknown = await raw("POST", "/monitors", { project, body: { ...base, platforms: ["chatgpt", "bing"] } })
      expectInvalid(unknown, ["platforms.1"])
      expect(Object.keys(unknown.body.errors)).toEqual(["platforms.1"])
      const unknownFirst = await raw("POST", "/monitors", { project, body: { ...base, platforms: ["bing"] } })
      expectInvalid(unknownFirst, ["platforms.0"])

      const created = await newMonitor(project)
      expectInvalid(await raw("PATCH", `/monitors/${created.id}`, { project, body: { country: "XX" } }), ["country"])
      expectInvalid(await raw("PATCH", `/monitors/${created.id}`, { project, body: { platforms: [] } }), ["platforms"])
      const read = await readMonitor(project, created.id)
      expect(read).toMatchObject({ country: "US", platforms: ["chatgpt"] })
    })

    it("DELETE /monitors/{monitor} answers 204 with an empty body", async () => {
      const created = await newMonitor(project)
      expectNoContent(await raw("DELETE", `/monitors/${created.id}`, { project }))
      expectNotFound(await raw("GET", `/monitors/${created.id}`, { project }), "Monitor not found")
    })

    it("a monitor of another project is not found", async () => {
      const other = (await newProject()).id
      const foreign = await newMonitor(other)
      expectNotFound(await raw("GET", `/monitors/${foreign.id}`, { project }), "Monitor not found")
      expectNotFound(await raw("PATCH", `/monitors/${foreign.id}`, { project, body: { active: false } }), "Monitor not found")
      expectNotFound(await raw("DELETE", `/monitors/${foreign.id}`, { project }), "Monitor not found")
      const still = await readMonitor(other, foreign.id)
      expect(still.active).toBe(true)
    })
  })

  describe("prompts", () => {
    let project: number
    let otherProject: number
    let monitorA: Monitor
    let monitorB: Monitor
    let foreignMonitor: Monitor
    let tags: ReadonlyArray<Tag>
    let foreignTags: ReadonlyArray<Tag>

    beforeAll(async () => {
      project = (await newProject("Prompts")).id
      otherProject = (await newProject("Prompts elsewhere")).id
      monitorA = await newMonitor(project, { name: "A" })
      monitorB = await newMonitor(project, { name: "B" })
      foreignMonitor = await newMonitor(otherProject, { name: "Foreign" })
      tags = await seededTags(project)
      foreignTags = await seededTags(otherProject)
    })

    it("POST /prompts creates a prompt (trimmed text) whose tags are Tag objects ordered by id", async () => {
      const [branded, nonBranded, review] = tags
      const prompt = expectData(
        await raw("POST", "/prompts", {
          project,
          body: { monitor_id: monitorA.id, text: "  Which CRM is best?  ", tags: [review.id, branded.id, nonBranded.id] }
        }),
        201,
        "prompt"
      )
      expect(prompt).toMatchObject({ monitor_id: monitorA.id, text: "Which CRM is best?" })
      expect(prompt.tags).toEqual(asJson([branded, nonBranded, review]))

      // Tags omitted: the typed client always sends them.
      const untagged = expectData(await raw("POST", "/prompts", { project, body: { monitor_id: monitorA.id, text: "No tags" } }), 201, "prompt")
      expect(untagged.tags).toEqual([])

      const duplicated = await newPrompt(project, { monitor_id: monitorA.id, text: "Twice", tags: [review.id, review.id] })
      expect(duplicated.tags).toEqual([review])

      const read = expectData(await raw("GET", `/prompts/${prompt.id}`, { project }), 200, "prompt")
      expect(read).toEqual(prompt)
    })

    it("GET /prompts lists the project's prompts and ?monitor_id= filters to one monitor", async () => {
      const onA = await newPrompt(project, { monitor_id: monitorA.id, text: "On A" })
      const onB1 = await newPrompt(project, { monitor_id: monitorB.id, text: "On B 1", tags: [tags[0].id] })
      const onB2 = await newPrompt(project, { monitor_id: monitorB.id, text: "On B 2" })
      await newPrompt(otherProject, { monitor_id: foreignMonitor.id, text: "Elsewhere" })

      const all = await raw("GET", "/prompts?per_page=100", { project })
      expect(all.status).toBe(200)
      expect(Object.keys(all.body)).toEqual(["data", "links", "meta"])
      for (const prompt of all.body.data) expectResource("prompt", prompt)
      const allIds = ids(all.body.data)
      expect(allIds).toEqual(expect.arrayContaining([onA.id, onB1.id, onB2.id]))
      expect([...allIds].sort((a, b) => a - b)).toEqual(allIds)
      expect(all.body.data.every((prompt: any) => [monitorA.id, monitorB.id].includes(prompt.monitor_id))).toBe(true)

      const filtered = await client((api) => api.prompts.list({ headers: inProject(project), urlParams: { monitor_id: monitorB.id } }))
      expect(ids(filtered.data)).toEqual([onB1.id, onB2.id])
      expect(filtered.data[0]).toEqual(onB1)
      expect(filtered.meta.total).toBe(2)
    })

    it("a monitor of another project is a 422 on create and in the filter", async () => {
      const create = await raw("POST", "/prompts", { project, body: { monitor_id: foreignMonitor.id, text: "Foreign" } })
      expectInvalid(create, ["monitor_id"])
      expect(Object.keys(create.body.errors)).toEqual(["monitor_id"])
      expectInvalid(await raw("POST", "/prompts", { project, body: { monitor_id: 99_999_999, text: "Absent" } }), ["monitor_id"])
      const filter = await raw("GET", `/prompts?monitor_id=${foreignMonitor.id}`, { project })
      expectInvalid(filter, ["monitor_id"])
    })

    it("PATCH monitor_id moves the prompt to another monitor of the same project", async () => {
      const prompt = await newPrompt(project, { monitor_id: monitorA.id, text: "Mover", tags: [tags[1].id] })
      const moved = (await client((api) =>
        api.prompts.update({ path: { prompt: prompt.id }, headers: inProject(project), payload: { monitor_id: monitorB.id } })
      )).data
      expect(moved).toMatchObject({ id: prompt.id, monitor_id: monitorB.id, text: "Mover" })
      expect(moved.tags).toEqual([tags[1]])
      const onMonitor = (monitor: number) =>
        client((api) => api.prompts.list({ headers: inProject(project), urlParams: { monitor_id: monitor, per_page: "100" } }))
      expect(ids((await onMonitor(monitorB.id)).data)).toContain(prompt.id)
      expect(ids((await onMonitor(monitorA.id)).data)).not.toContain(prompt.id)

      expectInvalid(await raw("PATCH", `/prompts/${prompt.id}`, { project, body: { monitor_id: foreignMonitor.id } }), ["monitor_id"])
      const read = await readPrompt(project, prompt.id)
      expect(read.monitor_id).toBe(monitorB.id)
    })

    it("PATCH tags replaces the whole set, [] empties it, and omitting tags keeps them", async () => {
      const [branded, nonBranded, review] = tags
      const prompt = await newPrompt(project, { monitor_id: monitorA.id, text: "Retag", tags: [branded.id, nonBranded.id] })

      const retag = async (tagIds: ReadonlyArray<number>) =>
        (await client((api) => api.prompts.update({ path: { prompt: prompt.id }, headers: inProject(project), payload: { tags: tagIds } }))).data
      const replaced = await retag([review.id, nonBranded.id])
      expect(replaced.tags).toEqual([nonBranded, review])

      const textOnly = expectData(await raw("PATCH", `/prompts/${prompt.id}`, { project, body: { text: "  Retagged  " } }), 200, "prompt")
      expect(textOnly).toMatchObject({ text: "Retagged", monitor_id: monitorA.id })
      expect(textOnly.tags).toEqual(asJson([nonBranded, review]))

      const emptied = await retag([])
      expect(emptied.tags).toEqual([])
      expect(emptied.text).toBe("Retagged")

      const read = await readPrompt(project, prompt.id)
      expect(read.tags).toEqual([])
    })

    it("tags with another project's tag id are a 422 naming tags.<index>", async () => {
      const create = await raw("POST", "/prompts", {
        project,
        body: { monitor_id: monitorA.id, text: "Foreign tag", tags: [tags[0].id, foreignTags[0].id] }
      })
      expectInvalid(create, ["tags.1"])
      expect(Object.keys(create.body.errors)).toEqual(["tags.1"])

      const prompt = await newPrompt(project, { monitor_id: monitorA.id, text: "Keep tags", tags: [tags[2].id] })
      const patch = await raw("PATCH", `/prompts/${prompt.id}`, { project, body: { tags: [foreignTags[1].id, tags[0].id] } })
      expectInvalid(patch, ["tags.0"])
      expect(Object.keys(patch.body.errors)).toEqual(["tags.0"])
      const read = await readPrompt(project, prompt.id)
      expect(read.tags).toEqual([tags[2]])
    })

    it("attach is idempotent and answers the prompt after the change (200)", async () => {
      const [branded, , review] = tags
      const prompt = await newPrompt(project, { monitor_id: monitorA.id, text: "Attach", tags: [review.id] })

      const first = await raw("POST", `/prompts/${prompt.id}/tags/${branded.id}`, { project })
      const afterFirst = expectData(first, 200, "prompt")
      expect(afterFirst.id).toBe(prompt.id)
      expect(afterFirst.tags).toEqual(asJson([branded, review]))

      const afterSecond = (await client((api) =>
        api.prompts.attachTag({ path: { prompt: prompt.id, tag: branded.id }, headers: inProject(project) })
      )).data
      expect(afterSecond.tags).toEqual([branded, review])

      const read = await readPrompt(project, prompt.id)
      expect(read.tags).toEqual([branded, review])
    })

    it("detach answers the prompt after the change; detaching a tag that is not attached is a 200 with no change", async () => {
      const [branded, nonBranded, review] = tags
      const prompt = await newPrompt(project, { monitor_id: monitorA.id, text: "Detach", tags: [branded.id, review.id] })

      const detached = expectData(await raw("DELETE", `/prompts/${prompt.id}/tags/${branded.id}`, { project }), 200, "prompt")
      expect(detached.tags).toEqual(asJson([review]))

      const detach = async (tag: number) =>
        (await client((api) => api.prompts.detachTag({ path: { prompt: prompt.id, tag }, headers: inProject(project) }))).data
      const again = await detach(branded.id)
      expect(again.tags).toEqual([review])
      const never = await detach(nonBranded.id)
      expect(never.tags).toEqual([review])
      expect(never.updated_at).toEqual(again.updated_at)

      const read = await readPrompt(project, prompt.id)
      expect(read.tags).toEqual([review])
    })

    it("attach or detach of another project's tag is `Tag not found`; another project's prompt is `Prompt not found`", async () => {
      const prompt = await newPrompt(project, { monitor_id: monitorA.id, text: "Guarded", tags: [tags[0].id] })
      expectNotFound(await raw("POST", `/prompts/${prompt.id}/tags/${foreignTags[1].id}`, { project }), "Tag not found")
      expectNotFound(await raw("DELETE", `/prompts/${prompt.id}/tags/${foreignTags[0].id}`, { project }), "Tag not found")
      expectNotFound(await raw("POST", `/prompts/${prompt.id}/tags/99999999`, { project }), "Tag not found")
      const read = await readPrompt(project, prompt.id)
      expect(read.tags).toEqual([tags[0]])

      const foreignPrompt = await newPrompt(otherProject, { monitor_id: foreignMonitor.id, text: "Not yours" })
      expectNotFound(await raw("GET", `/prompts/${foreignPrompt.id}`, { project }), "Prompt not found")
      expectNotFound(await raw("PATCH", `/prompts/${foreignPrompt.id}`, { project, body: { text: "Mine" } }), "Prompt not found")
      expectNotFound(await raw("DELETE", `/prompts/${foreignPrompt.id}`, { project }), "Prompt not found")
      expectNotFound(await raw("POST", `/prompts/${foreignPrompt.id}/tags/${tags[0].id}`, { project }), "Prompt not found")
      expectNotFound(await raw("DELETE", `/prompts/${foreignPrompt.id}/tags/${tags[0].id}`, { project }), "Prompt not found")
      const untouched = await readPrompt(otherProject, foreignPrompt.id)
      expect(untouched).toEqual(foreignPrompt)
    })

    it("DELETE /prompts/{prompt} answers 204 with an empty body", async () => {
      const prompt = await newPrompt(project, { monitor_id: monitorA.id, text: "Doomed", tags: [tags[0].id] })
      expectNoContent(await raw("DELETE", `/prompts/${prompt.id}`, { project }))
      expectNotFound(await raw("GET", `/prompts/${prompt.id}`, { project }), "Prompt not found")
      expectNotFound(await raw("DELETE", `/prompts/${prompt.id}`, { project }), "Prompt not found")
      // The tag itself stays.
      expect(await readTag(project, tags[0].id)).toEqual(tags[0])
    })

    it("a list page loads the tags of every prompt on it", async () => {
      const listProject = (await newProject("Prompt list")).id
      const monitor = await newMonitor(listProject)
      const [branded, nonBranded, review] = await seededTags(listProject)
      const extra = await newTag(listProject, { name: "extra" })
      const expected = [
        [review.id, branded.id],
        [],
        [extra.id, nonBranded.id, branded.id, review.id],
        [nonBranded.id],
        [extra.id]
      ]
      const created = []
      for (const [index, tagIds] of expected.entries()) {
        created.push(await newPrompt(listProject, { monitor_id: monitor.id, text: `Prompt ${index}`, tags: tagIds }))
      }
      const byId = new Map([branded, nonBranded, review, extra].map((tag) => [tag.id, tag]))
      const want = expected.map((tagIds) => [...tagIds].sort((a, b) => a - b).map((id) => byId.get(id)))

      const list = (urlParams: { page?: string; per_page?: string }) =>
        client((api) => api.prompts.list({ headers: inProject(listProject), urlParams }))
      const all = await list({})
      expect(ids(all.data)).toEqual(ids(created))
      expect(all.data.map((prompt) => prompt.tags)).toEqual(want)
      expect(all.data).toEqual(created)

      const page2 = await list({ per_page: "2", page: "2" })
      expect(ids(page2.data)).toEqual([created[2].id, created[3].id])
      expect(page2.data.map((prompt) => prompt.tags)).toEqual([want[2], want[3]])
      // The tags are computed for the page's rows only (Rows.ts, findPage); the count still covers every row.
      expect(page2.meta.total).toBe(5)
      const last = await list({ per_page: "2", page: "3" })
      expect(last.data.map((prompt) => prompt.tags)).toEqual([want[4]])
      expect(last.meta).toMatchObject({ total: 5, from: 5, to: 5 })
    })
  })

  describe("tags", () => {
    let project: number
    beforeAll(async () => {
      project = (await newProject("Tags")).id
    })

    it("POST /tags picks a #rrggbb default color and stores a given color lower-case", async () => {
      const plain = expectData(await raw("POST", "/tags", { project, body: { name: "  Plain  " } }), 201, "tag")
      expect(plain.name).toBe("Plain")
      expect(plain.color).toMatch(COLOR)
      const colored = expectData(await raw("POST", "/tags", { project, body: { name: "Colored", color: "#ABCDEF" } }), 201, "tag")
      expect(colored.color).toBe("#abcdef")
      const read = expectData(await raw("GET", `/tags/${colored.id}`, { project }), 200, "tag")
      expect(read).toEqual(colored)
    })

    it("refuses an invalid color with a 422", async () => {
      for (const color of ["red", "#abc", "#ABCDEFG", "abcdef", "#ggggggg", "#gggggg", 123]) {
        expectInvalid(await raw("POST", "/tags", { project, body: { name: `Bad ${String(color)}`, color } }), ["color"])
      }
      const tag = await newTag(project, { name: "Recolor", color: "#112233" })
      expectInvalid(await raw("PATCH", `/tags/${tag.id}`, { project, body: { color: "blue" } }), ["color"])
      const read = await readTag(project, tag.id)
      expect(read.color).toBe("#112233")
    })

    it("GET /tags lists the project's tags by id, the seeded ones first", async () => {
      const list = await raw("GET", "/tags?per_page=100", { project })
      expect(list.status).toBe(200)
      expect(Object.keys(list.body)).toEqual(["data", "links", "meta"])
      for (const tag of list.body.data) expectResource("tag", tag)
      expect(names(list.body.data).slice(0, 3)).toEqual(["branded", "non-branded", "review"])
      const listed = ids(list.body.data)
      expect([...listed].sort((a, b) => a - b)).toEqual(listed)
    })

    it("PATCH /tags/{tag} updates name and color; omitted fields keep their value", async () => {
      const tag = await newTag(project, { name: "Before", color: "#010203" })
      const renamed = expectData(await raw("PATCH", `/tags/${tag.id}`, { project, body: { name: " After " } }), 200, "tag")
      expect(renamed).toMatchObject({ id: tag.id, name: "After", color: "#010203" })
      const recolored = expectData(await raw("PATCH", `/tags/${tag.id}`, { project, body: { color: "#A0B0C0" } }), 200, "tag")
      expect(recolored).toMatchObject({ id: tag.id, name: "After", color: "#a0b0c0" })
      const nothing = (await client((api) => api.tags.update({ path: { tag: tag.id }, headers: inProject(project), payload: {} }))).data
      expect(nothing).toMatchObject({ name: "After", color: "#a0b0c0" })
    })

    it("a name already taken in any case is a 422 on create and on rename", async () => {
      const taken = { message: INVALID, errors: { name: ["The name has already been taken."] } }
      const create = await raw("POST", "/tags", { project, body: { name: "Branded" } })
      expect(create.status).toBe(422)
      expect(create.body).toEqual(taken)
      const createUpper = await raw("POST", "/tags", { project, body: { name: "REVIEW" } })
      expect(createUpper.status).toBe(422)
      expect(createUpper.body).toEqual(taken)

      const tag = await newTag(project, { name: "Unique" })
      const rename = await raw("PATCH", `/tags/${tag.id}`, { project, body: { name: "NON-BRANDED" } })
      expect(rename.status).toBe(422)
      expect(rename.body).toEqual(taken)
      const read = await readTag(project, tag.id)
      expect(read.name).toBe("Unique")
    })

    it("renaming a tag to its own name in another case is allowed", async () => {
      const tag = await newTag(project, { name: "casing" })
      const rename = async () =>
        (await client((api) => api.tags.update({ path: { tag: tag.id }, headers: inProject(project), payload: { name: "CaSiNg" } }))).data
      const renamed = await rename()
      expect(renamed.name).toBe("CaSiNg")
      const same = await rename()
      expect(same.name).toBe("CaSiNg")
    })

    it("the same name is allowed in another project", async () => {
      const other = (await newProject()).id
      await newTag(project, { name: "Shared name" })
      const there = await newTag(other, { name: "Shared name" })
      expect(there.name).toBe("Shared name")
      // Even in another case.
      const cased = await newTag(other, { name: "SHARED NAME 2" })
      await newTag(project, { name: "shared name 2" })
      expect(cased.name).toBe("SHARED NAME 2")
    })

    it("non-ASCII names are compared case-insensitively too", async () => {
      await newTag(project, { name: "Ärzte" })
      const reply = await raw("POST", "/tags", { project, body: { name: "ärzte" } })
      expect(reply.status, JSON.stringify(reply.body)).toBe(422)
      expect(reply.body).toEqual({ message: INVALID, errors: { name: ["The name has already been taken."] } })

      const other = await newTag(project, { name: "Öl" })
      const rename = await raw("PATCH", `/tags/${other.id}`, { project, body: { name: "ÄRZTE" } })
      expect(rename.status, JSON.stringify(rename.body)).toBe(422)
      expect(rename.body).toEqual({ message: INVALID, errors: { name: ["The name has already been taken."] } })
    })

    it("DELETE /tags/{tag} answers 204, removes its attachments and leaves the prompts", async () => {
      const monitor = await newMonitor(project)
      const doomed = await newTag(project, { name: "Doomed" })
      const kept = await newTag(project, { name: "Kept" })
      const p1 = await newPrompt(project, { monitor_id: monitor.id, text: "One", tags: [doomed.id, kept.id] })
      const p2 = await newPrompt(project, { monitor_id: monitor.id, text: "Two", tags: [doomed.id] })

      expectNoContent(await raw("DELETE", `/tags/${doomed.id}`, { project }))
      expectNotFound(await raw("GET", `/tags/${doomed.id}`, { project }), "Tag not found")

      const one = await readPrompt(project, p1.id)
      expect(one.tags).toEqual([kept])
      expect(one.text).toBe("One")
      const two = await readPrompt(project, p2.id)
      expect(two.tags).toEqual([])
      const list = await client((api) => api.prompts.list({ headers: inProject(project), urlParams: { monitor_id: monitor.id } }))
      expect(ids(list.data)).toEqual([p1.id, p2.id])
      // Its name is free again.
      await newTag(project, { name: "doomed" })
    })

    it("a tag of another project is not found", async () => {
      const other = (await newProject()).id
      const [foreign] = await seededTags(other)
      expectNotFound(await raw("GET", `/tags/${foreign.id}`, { project }), "Tag not found")
      expectNotFound(await raw("PATCH", `/tags/${foreign.id}`, { project, body: { color: "#000000" } }), "Tag not found")
      expectNotFound(await raw("DELETE", `/tags/${foreign.id}`, { project }), "Tag not found")
      const still = await readTag(other, foreign.id)
      expect(still).toEqual(foreign)
    })
  })
})
