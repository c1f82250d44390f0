import type { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Segment } from "../../src/Domain/Brand.ts"
import type { CreateBrand } from "../../src/Brands/Api.ts"
import { type ApiClient, inProject } from "../support/ApiClient.ts"
import { backends, startServer, type TestServer } from "../support/TestServer.ts"

/**
 * Brands and segments (docs/api.md): success paths with exact field sets and defaults, the
 * normalization of aliases and domains, segment sets (replace, attach, detach), tenant boundaries,
 * validation errors by exact key, and the project's own brand (`projects.brand_id`).
 *
 * Values are read through the API's typed client: each answer is decoded with its endpoint's schema,
 * and only under the status the endpoint declares (201 for a create, 200 otherwise). Raw requests stay
 * for what only the wire shows, at least once per endpoint (the status asserted on its own,
 * `{"data": ...}` and nothing else, exact field sets, the timestamp format, the pagination envelope,
 * 204 and 4xx bodies), and for input the typed client cannot send: it encodes a payload from the type
 * the server decodes it to, so never untrimmed or repeated values, other cases, omitted defaults or
 * unknown fields.
 */

const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/
const INVALID = "The given data was invalid."

const FIELDS = {
  brand: ["id", "project_id", "name", "aliases", "domains", "classification", "is_own", "segment_ids", "created_at", "updated_at"],
  segment: ["id", "project_id", "name", "created_at", "updated_at"],
  project: ["id", "organization_id", "name", "domain", "brand_id", "created_at", "updated_at"]
} as const

type Kind = keyof typeof FIELDS

const expectResource = (kind: Kind, value: any) => {
  expect(value).toBeTypeOf("object")
  expect(Object.keys(value).sort()).toEqual([...FIELDS[kind]].sort())
  expect(Number.isInteger(value.id) && value.id > 0).toBe(true)
  expect(value.created_at).toMatch(TIMESTAMP)
  expect(value.updated_at).toMatch(TIMESTAMP)
  if (kind === "brand") {
    for (const field of ["aliases", "domains", "segment_ids"]) expect(Array.isArray(value[field]), field).toBe(true)
  }
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

/** A 422 with exactly these errors. */
const expectErrors = (reply: { status: number; body: any }, errors: Record<string, ReadonlyArray<string>>) => {
  expect(reply.status, JSON.stringify(reply.body)).toBe(422)
  expect(reply.body).toEqual({ message: INVALID, errors })
}

const expectNotFound = (reply: { status: number; body: any }, message: string) => {
  expect(reply.status, JSON.stringify(reply.body)).toBe(404)
  expect(reply.body).toEqual({ message })
}

const ascending = (list: ReadonlyArray<number>) => [...list].sort((a, b) => a - b)

/** A decoded value as JSON carries it (dates as ISO strings), to compare with a raw reply's body. */
const asJson = (value: unknown) => JSON.parse(JSON.stringify(value))

describe.each(backends)("brands and segments (%s)", (backend) => {
  let server: TestServer
  let key: string
  /** A key of another organization, and a project there. */
  let strangerKey: string
  let strangerProject: number

  beforeAll(async () => {
    server = await startServer(backend)
    const organization = await server.createOrganization("Brands Org")
    key = (await server.createKey(organization.id, ["*"])).key
    const stranger = await server.createOrganization("Stranger Org")
    strangerKey = (await server.createKey(stranger.id, ["*"])).key
    strangerProject = (await newProject("Stranger", strangerKey)).id
  })
  afterAll(() => server.close())

  const raw = (method: string, path: string, options: { project?: number; body?: unknown; key?: string } = {}) =>
    server.request(method, `/api/v1${path}`, { key: options.key ?? key, project: options.project, body: options.body })

  /** Calls of the typed client with the suite's key. */
  const client = <A, E>(use: (api: ApiClient) => Effect.Effect<A, E>) => server.client(key)(use)

  let projectCount = 0
  const newProject = async (name = `Project ${++projectCount}`, as = key) =>
    (await server.client(as)((api) => api.projects.create({ payload: { name } }))).data
  const newSegment = async (project: number, name = "Segment", as = key) =>
    (await server.client(as)((api) => api.segments.create({ headers: inProject(project), payload: { name } }))).data
  /** A brand with the given fields, the others at their default. */
  const newBrand = async (project: number, fields: Partial<typeof CreateBrand.Type> & { name: string }, as = key) =>
    (await server.client(as)((api) =>
      api.brands.create({
        headers: inProject(project),
        payload: { aliases: [], domains: [], classification: "competitor", segment_ids: [], ...fields }
      })
    )).data

  const readProject = async (project: number) => (await client((api) => api.project.get({ path: { project } }))).data
  const readSegment = async (project: number, segment: number) =>
    (await client((api) => api.segments.get({ path: { segment }, headers: inProject(project) }))).data
  const readBrand = async (project: number, brand: number, as = key) =>
    (await server.client(as)((api) => api.brands.get({ path: { brand }, headers: inProject(project) }))).data
  const brandCount = async (project: number) =>
    (await client((api) => api.brands.list({ headers: inProject(project), urlParams: {} }))).meta.total

  describe("segments", () => {
    let project: number
    beforeAll(async () => {
      project = (await newProject("Segments")).id
    })

    it("POST /segments creates a segment of the active project (201), its name trimmed; GET reads it", async () => {
      const segment = expectData(await raw("POST", "/segments", { project, body: { name: "  Enterprise  " } }), 201, "segment")
      expect(segment).toMatchObject({ project_id: project, name: "Enterprise" })
      expect(segment.updated_at).toBe(segment.created_at)
      expect(expectData(await raw("GET", `/segments/${segment.id}`, { project }), 200, "segment")).toEqual(segment)
    })

    it("GET /segments lists the project's segments by id, paginated, with an exact total", async () => {
      const listProject = (await newProject("Segment list")).id
      const created = [await newSegment(listProject, "C"), await newSegment(listProject, "A"), await newSegment(listProject, "B")]
      await newSegment(project, "Elsewhere")
      const all = await raw("GET", "/segments", { project: listProject })
      expect(all.status).toBe(200)
      expect(Object.keys(all.body)).toEqual(["data", "links", "meta"])
      for (const segment of all.body.data) expectResource("segment", segment)
      expect(all.body.data).toEqual(asJson(created))
      expect(all.body.meta.total).toBe(3)
      const page2 = await raw("GET", "/segments?per_page=2&page=2", { project: listProject })
      expect(page2.body.data).toEqual(asJson([created[2]]))
      expect(page2.body.meta).toMatchObject({ current_page: 2, last_page: 2, total: 3, from: 3, to: 3 })
    })

    it("PATCH /segments/{segment} renames (trimmed); an empty PATCH changes nothing, not even updated_at", async () => {
      const segment = await newSegment(project, "Before")
      const renamed = expectData(await raw("PATCH", `/segments/${segment.id}`, { project, body: { name: " After " } }), 200, "segment")
      expect(renamed).toMatchObject({ id: segment.id, project_id: project, name: "After", created_at: segment.created_at.toISOString() })
      const same = (await client((api) => api.segments.update({ path: { segment: segment.id }, headers: inProject(project), payload: {} }))).data
      expect(asJson(same)).toEqual(renamed)
      // Unknown fields are ignored; project_id is not writable.
      const ignored = expectData(
        await raw("PATCH", `/segments/${segment.id}`, { project, body: { project_id: strangerProject, id: 1 } }),
        200,
        "segment"
      )
      expect(ignored).toEqual(renamed)
    })

    it("refuses a missing, blank, non-string or too long name with a 422 naming `name`", async () => {
      expectErrors(await raw("POST", "/segments", { project, body: {} }), { name: ["The name field is required."] })
      expectErrors(await raw("POST", "/segments", { project, body: { name: "   " } }), { name: ["The name field is required."] })
      expectErrors(await raw("POST", "/segments", { project, body: { name: 42 } }), { name: ["The name field must be a string."] })
      expectErrors(await raw("POST", "/segments", { project, body: { name: "s".repeat(256) } }), {
        name: ["The name field must not be greater than 255 characters."]
      })
      expect((await newSegment(project, "é".repeat(255))).name).toBe("é".repeat(255))
      const segment = await newSegment(project, "Keep")
      expectErrors(await raw("PATCH", `/segments/${segment.id}`, { project, body: { name: null } }), {
        name: ["The name field must be a string."]
      })
      expect((await readSegment(project, segment.id)).name).toBe("Keep")
    })

    it("DELETE /segments/{segment} answers 204 and only detaches it from its brands", async () => {
      const doomed = await newSegment(project, "Doomed")
      const kept = await newSegment(project, "Kept")
      const brand = await newBrand(project, { name: "Segmented", segment_ids: [doomed.id, kept.id] })
      expectNoContent(await raw("DELETE", `/segments/${doomed.id}`, { project }))
      expectNotFound(await raw("GET", `/segments/${doomed.id}`, { project }), "Segment not found")
      expectNotFound(await raw("DELETE", `/segments/${doomed.id}`, { project }), "Segment not found")
      const after = await readBrand(project, brand.id)
      expect(after).toEqual({ ...brand, segment_ids: [kept.id] })
    })

    it("a segment of another project or organization is not found", async () => {
      const sibling = (await newProject()).id
      const foreign = await newSegment(sibling, "Sibling's")
      const stranger = await newSegment(strangerProject, "Stranger's", strangerKey)
      for (const segment of [foreign, stranger]) {
        expectNotFound(await raw("GET", `/segments/${segment.id}`, { project }), "Segment not found")
        expectNotFound(await raw("PATCH", `/segments/${segment.id}`, { project, body: { name: "Mine" } }), "Segment not found")
        expectNotFound(await raw("DELETE", `/segments/${segment.id}`, { project }), "Segment not found")
      }
      expectNotFound(await raw("GET", "/segments/99999999", { project }), "Segment not found")
      expectNotFound(await raw("GET", "/segments/abc", { project }), "Segment not found")
      expect(await readSegment(sibling, foreign.id)).toEqual(foreign)
      // Another organization's project by header: the project itself is not found.
      expectNotFound(await raw("GET", "/segments", { project: strangerProject }), "Project not found")
      expectNotFound(await raw("GET", `/segments/${stranger.id}`, { project: strangerProject }), "Project not found")
    })
  })

  describe("brands", () => {
    let project: number
    let segments: ReadonlyArray<Segment>
    let foreignSegment: Segment
    beforeAll(async () => {
      project = (await newProject("Brands")).id
      segments = [await newSegment(project, "One"), await newSegment(project, "Two"), await newSegment(project, "Three")]
      foreignSegment = await newSegment((await newProject()).id, "Foreign")
    })

    // 999 brands seeded by SQL; the in-memory reference keeps the cap too (test/unit/repositories.test.ts).
    if (backend !== "memory") {
      it("a project holds at most 1,000 brands: the next one is a 422 on brands, and one fits again after a deletion", async () => {
        const full = (await newProject("Full")).id
        await server.sql!(`INSERT INTO brands (project_id, name) SELECT ${full}, 'Seeded ' || g FROM generate_series(1, 999) g`)
        const last = expectData(await raw("POST", "/brands", { project: full, body: { name: "Thousandth" } }), 201, "brand")
        const refused = await raw("POST", "/brands", { project: full, body: { name: "One too many" } })
        expectErrors(refused, { brands: ["The project already has 1000 brands, the most it may have."] })
        expect(await brandCount(full)).toBe(1000)
        // The limit is the project's: another project still takes brands.
        expectData(await raw("POST", "/brands", { project: (await newProject()).id, body: { name: "Elsewhere" } }), 201, "brand")
        expectNoContent(await raw("DELETE", `/brands/${last.id}`, { project: full }))
        expectData(await raw("POST", "/brands", { project: full, body: { name: "Room again" } }), 201, "brand")
        expect(await brandCount(full)).toBe(1000)
      })
    }

    it("POST /brands with only a name takes the defaults", async () => {
      // Raw: only the name is sent, untrimmed (the typed client sends every field, trimmed).
      const brand = expectData(await raw("POST", "/brands", { project, body: { name: "  Acme  " } }), 201, "brand")
      expect(brand).toEqual({
        id: brand.id,
        project_id: project,
        name: "Acme",
        aliases: [],
        domains: [],
        classification: "competitor",
        is_own: false,
        segment_ids: [],
        created_at: brand.created_at,
        updated_at: brand.created_at
      })
      expect(expectData(await raw("GET", `/brands/${brand.id}`, { project }), 200, "brand")).toEqual(brand)
    })

    it("POST /brands trims and dedupes aliases case-insensitively, normalizes domains, orders segment_ids", async () => {
      const [one, two, three] = segments
      // Raw: values the server normalises.
      const created = await raw("POST", "/brands", {
        project,
        body: {
          name: "Globex",
          aliases: ["  Globex Corp.  ", "GLOBEX", "globex corp.", "Globex", "Glöbex", "GLÖBEX"],
          domains: ["WWW.Globex.COM", " globex.com ", "Shop.Globex.com", "www.globex.io", "globex.io", "wwwglobex.net"],
          classification: "ignored",
          segment_ids: [three.id, one.id, three.id, two.id]
        }
      })
      const brand = expectData(created, 201, "brand")
      expect(brand).toMatchObject({
        project_id: project,
        name: "Globex",
        aliases: ["Globex Corp.", "GLOBEX", "Glöbex"],
        domains: ["globex.com", "shop.globex.com", "globex.io", "wwwglobex.net"],
        classification: "ignored",
        segment_ids: ascending([one.id, two.id, three.id])
      })
      expect(asJson(await readBrand(project, brand.id))).toEqual(brand)

      const other = await newBrand(project, { name: "Other", classification: "other", aliases: [], domains: [], segment_ids: [] })
      expect(other).toMatchObject({ classification: "other", aliases: [], domains: [], segment_ids: [] })
    })

    it("GET /brands lists the project's brands by id, each with its segment ids, paginated", async () => {
      const listProject = (await newProject("Brand list")).id
      const [a, b, c] = [await newSegment(listProject, "A"), await newSegment(listProject, "B"), await newSegment(listProject, "C")]
      const wanted = [[c.id, a.id], [], [b.id], [a.id, b.id, c.id]]
      const created = []
      for (const [index, segmentIds] of wanted.entries()) {
        created.push(await newBrand(listProject, { name: `Brand ${index}`, segment_ids: segmentIds }))
      }
      await newBrand(project, { name: "Elsewhere" })
      const all = await raw("GET", "/brands", { project: listProject })
      expect(all.status).toBe(200)
      expect(Object.keys(all.body)).toEqual(["data", "links", "meta"])
      for (const brand of all.body.data) expectResource("brand", brand)
      expect(all.body.data).toEqual(asJson(created))
      expect(all.body.data.map((brand: any) => brand.segment_ids)).toEqual(wanted.map(ascending))
      expect(all.body.meta.total).toBe(4)

      const page2 = await raw("GET", "/brands?per_page=3&page=2", { project: listProject })
      expect(page2.body.data).toEqual(asJson([created[3]]))
      expect(page2.body.meta).toMatchObject({ current_page: 2, last_page: 2, per_page: 3, total: 4, from: 4, to: 4 })
    })

    it("PATCH /brands/{brand} updates a subset; segment_ids replaces the set, [] empties it, omitted keeps it", async () => {
      const [one, two, three] = segments
      const brand = await newBrand(project, { name: "Initech", aliases: ["Ini"], domains: ["initech.com"], segment_ids: [one.id, two.id] })

      const renamed = expectData(
        await raw("PATCH", `/brands/${brand.id}`, { project, body: { name: " Initech Ltd ", classification: "other" } }),
        200,
        "brand"
      )
      expect(renamed).toMatchObject({
        name: "Initech Ltd",
        classification: "other",
        aliases: ["Ini"],
        domains: ["initech.com"],
        segment_ids: [one.id, two.id],
        created_at: brand.created_at.toISOString()
      })

      const relisted = expectData(
        await raw("PATCH", `/brands/${brand.id}`, {
          project,
          body: { aliases: ["INI", " ini ", "Initech"], domains: ["WWW.INITECH.ORG", "initech.org"], segment_ids: [three.id, two.id, three.id] }
        }),
        200,
        "brand"
      )
      expect(relisted).toMatchObject({
        name: "Initech Ltd",
        aliases: ["INI", "Initech"],
        domains: ["initech.org"],
        segment_ids: ascending([two.id, three.id])
      })

      const update = async (payload: { segment_ids?: ReadonlyArray<number>; aliases?: ReadonlyArray<string> }) =>
        (await client((api) => api.brands.update({ path: { brand: brand.id }, headers: inProject(project), payload }))).data
      const emptied = await update({ segment_ids: [], aliases: [] })
      expect(emptied).toMatchObject({ aliases: [], domains: ["initech.org"], segment_ids: [], classification: "other" })

      const nothing = await update({})
      expect(nothing).toEqual(emptied)
      // Unknown fields are ignored; project_id is not writable (raw: the typed client sends no unknown field).
      const ignored = expectData(await raw("PATCH", `/brands/${brand.id}`, { project, body: { project_id: strangerProject } }), 200, "brand")
      expect(ignored).toEqual(asJson(emptied))
      expect(await readBrand(project, brand.id)).toEqual(emptied)
    })

    it("attach is idempotent and answers the brand after the change (200)", async () => {
      const [one, two, three] = segments
      const brand = await newBrand(project, { name: "Attach", segment_ids: [three.id] })
      const first = expectData(await raw("POST", `/brands/${brand.id}/segments/${one.id}`, { project }), 200, "brand")
      expect(first).toEqual(asJson({ ...brand, segment_ids: ascending([one.id, three.id]) }))
      const attach = async (segment: number) =>
        (await client((api) => api.brands.attachSegment({ path: { brand: brand.id, segment }, headers: inProject(project) }))).data
      const again = await attach(one.id)
      expect(asJson(again)).toEqual(first)
      const more = await attach(two.id)
      expect(more.segment_ids).toEqual(ascending([one.id, two.id, three.id]))
      expect(await readBrand(project, brand.id)).toEqual(more)
    })

    it("detach is idempotent and answers the brand after the change (200)", async () => {
      const [one, two, three] = segments
      const brand = await newBrand(project, { name: "Detach", segment_ids: [one.id, three.id] })
      const detached = expectData(await raw("DELETE", `/brands/${brand.id}/segments/${one.id}`, { project }), 200, "brand")
      expect(detached).toEqual(asJson({ ...brand, segment_ids: [three.id] }))
      const detach = async (segment: number) =>
        (await client((api) => api.brands.detachSegment({ path: { brand: brand.id, segment }, headers: inProject(project) }))).data
      const again = await detach(one.id)
      expect(asJson(again)).toEqual(detached)
      const never = await detach(two.id)
      expect(asJson(never)).toEqual(detached)
      expect(asJson(await readBrand(project, brand.id))).toEqual(detached)
    })

    it("refuses invalid fields with a 422 naming each, and writes nothing", async () => {
      const before = await brandCount(project)
      expectErrors(await raw("POST", "/brands", { project, body: {} }), { name: ["The name field is required."] })
      expectErrors(await raw("POST", "/brands", { project, body: { name: "  " } }), { name: ["The name field is required."] })
      expectErrors(await raw("POST", "/brands", { project, body: { name: "b".repeat(256) } }), {
        name: ["The name field must not be greater than 255 characters."]
      })
      expectErrors(
        await raw("POST", "/brands", { project, body: { name: 7, aliases: "Acme", domains: "acme.com", classification: "friend", segment_ids: 3 } }),
        {
          name: ["The name field must be a string."],
          aliases: ["The aliases field must be an array."],
          domains: ["The domains field must be an array."],
          classification: ["The selected classification is invalid. Allowed: competitor, other, ignored."],
          segment_ids: ["The segment ids field must be an array."]
        }
      )
      expectErrors(
        await raw("POST", "/brands", {
          project,
          body: {
            name: "Items",
            aliases: ["ok", "  ", 7, "a".repeat(256)],
            domains: ["acme.com", "not a host", "https://acme.com", null],
            segment_ids: [segments[0].id, 0, "x", 1.5]
          }
        }),
        {
          "aliases.1": ["The aliases item field is required."],
          "aliases.2": ["The aliases item field must be a string."],
          "aliases.3": ["The aliases item field must not be greater than 255 characters."],
          "domains.1": ["The domains item field must be a valid hostname."],
          "domains.2": ["The domains item field must be a valid hostname."],
          "domains.3": ["The domains item field must be a string."],
          "segment_ids.1": ["The segment ids item field must be at least 1."],
          "segment_ids.2": ["The segment ids item field must be an integer."],
          "segment_ids.3": ["The segment ids item field must be an integer."]
        }
      )
      expectErrors(await raw("POST", "/brands", { project, body: { name: "Null class", classification: null } }), {
        classification: ["The selected classification is invalid. Allowed: competitor, other, ignored."]
      })
      // Segments of another project, or absent, are refused by index.
      expectErrors(
        await raw("POST", "/brands", { project, body: { name: "Foreign", segment_ids: [segments[0].id, foreignSegment.id, 99999999] } }),
        { "segment_ids.1": ["The selected segment_ids.1 is invalid."], "segment_ids.2": ["The selected segment_ids.2 is invalid."] }
      )
      expect(await brandCount(project)).toBe(before)

      const brand = await newBrand(project, { name: "Guarded", segment_ids: [segments[1].id] })
      expectErrors(await raw("PATCH", `/brands/${brand.id}`, { project, body: { segment_ids: [foreignSegment.id] } }), {
        "segment_ids.0": ["The selected segment_ids.0 is invalid."]
      })
      expectErrors(await raw("PATCH", `/brands/${brand.id}`, { project, body: { name: null, domains: ["bad host"] } }), {
        name: ["The name field must be a string."],
        "domains.0": ["The domains item field must be a valid hostname."]
      })
      expect(await readBrand(project, brand.id)).toEqual(brand)
    })

    it("a brand or segment outside the active project answers 404 `Brand not found` / `Segment not found`", async () => {
      const sibling = (await newProject()).id
      const siblingBrand = await newBrand(sibling, { name: "Sibling's" })
      const strangerBrand = await newBrand(strangerProject, { name: "Stranger's" }, strangerKey)
      const strangerSegment = await newSegment(strangerProject, "Stranger's", strangerKey)
      const own = await newBrand(project, { name: "Own", segment_ids: [segments[0].id] })

      for (const brand of [siblingBrand, strangerBrand, { id: 99999999 }]) {
        expectNotFound(await raw("GET", `/brands/${brand.id}`, { project }), "Brand not found")
        expectNotFound(await raw("PATCH", `/brands/${brand.id}`, { project, body: { name: "Mine" } }), "Brand not found")
        expectNotFound(await raw("DELETE", `/brands/${brand.id}`, { project }), "Brand not found")
        expectNotFound(await raw("POST", `/brands/${brand.id}/segments/${segments[0].id}`, { project }), "Brand not found")
        expectNotFound(await raw("DELETE", `/brands/${brand.id}/segments/${segments[0].id}`, { project }), "Brand not found")
      }
      expectNotFound(await raw("GET", "/brands/abc", { project }), "Brand not found")
      for (const segment of [foreignSegment, strangerSegment, { id: 99999999 }]) {
        expectNotFound(await raw("POST", `/brands/${own.id}/segments/${segment.id}`, { project }), "Segment not found")
        expectNotFound(await raw("DELETE", `/brands/${own.id}/segments/${segment.id}`, { project }), "Segment not found")
      }
      expectNotFound(await raw("POST", `/brands/${own.id}/segments/0`, { project }), "Segment not found")
      // The brand is looked up first.
      expectNotFound(await raw("POST", `/brands/${siblingBrand.id}/segments/${foreignSegment.id}`, { project }), "Brand not found")

      expect(await readBrand(project, own.id)).toEqual(own)
      expect(await readBrand(sibling, siblingBrand.id)).toEqual(siblingBrand)
      expect(await readBrand(strangerProject, strangerBrand.id, strangerKey)).toEqual(strangerBrand)
      // Another organization's project by header: the project itself is not found.
      expectNotFound(await raw("GET", "/brands", { project: strangerProject }), "Project not found")
      expectNotFound(await raw("GET", `/brands/${strangerBrand.id}`, { project: strangerProject }), "Project not found")
    })

    it("DELETE /brands/{brand} answers 204, keeps the segments, and clears the project's brand_id", async () => {
      const own = (await newProject("Own brand")).id
      const segment = await newSegment(own, "Kept")
      const brand = await newBrand(own, { name: "Ours", segment_ids: [segment.id] })
      const rival = await newBrand(own, { name: "Rival" })
      const set = (await client((api) => api.project.update({ path: { project: own }, payload: { brand_id: brand.id } }))).data
      expect(set.brand_id).toBe(brand.id)

      // Another brand goes: the project keeps its own.
      expectNoContent(await raw("DELETE", `/brands/${rival.id}`, { project: own }))
      expect((await readProject(own)).brand_id).toBe(brand.id)

      expectNoContent(await raw("DELETE", `/brands/${brand.id}`, { project: own }))
      expectNotFound(await raw("GET", `/brands/${brand.id}`, { project: own }), "Brand not found")
      expectNotFound(await raw("DELETE", `/brands/${brand.id}`, { project: own }), "Brand not found")
      const project = await readProject(own)
      expect(project.brand_id).toBeNull()
      expect(await readSegment(own, segment.id)).toEqual(segment)
      expect(await brandCount(own)).toBe(0)
    })

    it("is_own marks the project's own brand on every brand it shows, following brand_id as it changes", async () => {
      const own = (await newProject("Is own")).id
      const segment = await newSegment(own, "Shown")
      const ours = await newBrand(own, { name: "Ours", segment_ids: [segment.id] })
      const rival = await newBrand(own, { name: "Rival" })
      expect([ours.is_own, rival.is_own]).toEqual([false, false])
      await client((api) => api.project.update({ path: { project: own }, payload: { brand_id: ours.id } }))
      const ownFlags = async () =>
        (await raw("GET", "/brands?per_page=100", { project: own })).body.data.map((brand: { name: string; is_own: boolean }) => [brand.name, brand.is_own])
      expect(await ownFlags()).toEqual([["Ours", true], ["Rival", false]])
      expect((await readBrand(own, ours.id)).is_own).toBe(true)
      const patched = expectData(await raw("PATCH", `/brands/${ours.id}`, { project: own, body: { aliases: ["Us"] } }), 200, "brand")
      expect(patched.is_own).toBe(true)
      const detached = expectData(await raw("DELETE", `/brands/${ours.id}/segments/${segment.id}`, { project: own }), 200, "brand")
      expect(detached.is_own).toBe(true)
      await client((api) => api.project.update({ path: { project: own }, payload: { brand_id: rival.id } }))
      expect(await ownFlags()).toEqual([["Ours", false], ["Rival", true]])
      await client((api) => api.project.update({ path: { project: own }, payload: { brand_id: null } }))
      expect(await ownFlags()).toEqual([["Ours", false], ["Rival", false]])
    })

    it("PATCH /projects/{project} takes a brand of the project as brand_id and refuses another project's (422)", async () => {
      const own = (await newProject("Branded")).id
      const brand = await newBrand(own, { name: "Mine" })
      const sibling = await newBrand(project, { name: "Not mine" })
      const strangers = await newBrand(strangerProject, { name: "Theirs" }, strangerKey)

      const set = expectData(await raw("PATCH", `/projects/${own}`, { body: { brand_id: brand.id } }), 200, "project")
      expect(set).toMatchObject({ id: own, brand_id: brand.id })
      for (const foreign of [sibling, strangers]) {
        expectErrors(await raw("PATCH", `/projects/${own}`, { body: { brand_id: foreign.id } }), {
          brand_id: ["The selected brand id is invalid."]
        })
      }
      expect((await readProject(own)).brand_id).toBe(brand.id)
      const unset = (await client((api) => api.project.update({ path: { project: own }, payload: { brand_id: null } }))).data
      expect(unset.brand_id).toBeNull()
    })
  })
})
