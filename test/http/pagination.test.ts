import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { backends, startServer, type Reply, type TestServer } from "../support/TestServer.ts"

/**
 * The pagination envelope end to end (docs/api.md,
 * "Page links", "Link URLs", "page / per_page"), on a project-scoped list (GET /tags) and on the
 * organization-level list (GET /projects).
 */

const PREVIOUS = "&laquo; Previous"
const NEXT = "Next &raquo;"
const META_KEYS = ["current_page", "from", "last_page", "links", "path", "per_page", "to", "total"]
const LINKS_KEYS = ["first", "last", "prev", "next"]
const ROW_KEYS = ["url", "label", "page", "active"]

type WindowItem = number | "..."

/**
 * Expected `links` and `meta` of one page. `query` is the request's query without `page`, in the
 * order it was sent (link URLs keep it and put `page` last); `window` is the literal list of page rows.
 */
const expected = (options: {
  readonly path: string
  readonly query: string
  readonly current: number
  readonly lastPage: number
  readonly perPage: number
  readonly total: number
  readonly from: number | null
  readonly to: number | null
  readonly window: ReadonlyArray<WindowItem>
}) => {
  const url = (page: number) => `${options.path}?${options.query === "" ? "" : `${options.query}&`}page=${page}`
  const prevPage = options.current > 1 ? options.current - 1 : null
  const nextPage = options.current < options.lastPage ? options.current + 1 : null
  return {
    links: {
      first: url(1),
      last: url(options.lastPage),
      prev: prevPage === null ? null : url(prevPage),
      next: nextPage === null ? null : url(nextPage)
    },
    meta: {
      current_page: options.current,
      from: options.from,
      last_page: options.lastPage,
      links: [
        { url: prevPage === null ? null : url(prevPage), label: PREVIOUS, page: prevPage, active: false },
        ...options.window.map((item) =>
          item === "..."
            ? { url: null, label: "...", page: null, active: false }
            : { url: url(item), label: String(item), page: item, active: item === options.current }
        ),
        { url: nextPage === null ? null : url(nextPage), label: NEXT, page: nextPage, active: false }
      ],
      path: options.path,
      per_page: options.perPage,
      to: options.to,
      total: options.total
    }
  }
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i)

/** Key order of the whole envelope, as sent on the wire (JSON.parse keeps it). */
const expectKeyOrder = (reply: Reply) => {
  expect(Object.keys(reply.body)).toEqual(["data", "links", "meta"])
  expect(Object.keys(reply.body.links)).toEqual(LINKS_KEYS)
  expect(Object.keys(reply.body.meta)).toEqual(META_KEYS)
  for (const row of reply.body.meta.links) expect(Object.keys(row)).toEqual(ROW_KEYS)
  // And the raw text agrees (no reliance on the client's parser).
  expect(reply.text.indexOf("\"data\"")).toBeLessThan(reply.text.indexOf("\"links\""))
  expect(reply.text.indexOf("\"links\"")).toBeLessThan(reply.text.indexOf("\"meta\""))
}

const ids = (reply: Reply): Array<number> => reply.body.data.map((row: { id: number }) => row.id)

describe.each(backends)("pagination envelope (%s)", (backend) => {
  let server: TestServer
  let key: string
  let projectId: number
  let otherProjectId: number
  /** Every tag id of the project, ascending (30 tags: 3 seeded + 27 created). */
  let tagIds: Array<number>
  let tagsPath: string
  let projectsPath: string

  /** Org with 5 projects, its key, and an org with no project at all. */
  let listOrgKey: string
  let listOrgProjectIds: Array<number>
  let restrictedKey: string
  let emptyOrgKey: string

  const get = (path: string, k: string = key, project: number | undefined = projectId) =>
    server.request("GET", path, { key: k, project })

  beforeAll(async () => {
    server = await startServer(backend)
    tagsPath = `${server.baseUrl}/api/v1/tags`
    projectsPath = `${server.baseUrl}/api/v1/projects`
    const organization = await server.createOrganization("Pagination")
    key = (await server.createKey(organization.id, ["*"])).key

    const project = await server.request("POST", "/api/v1/projects", { key, body: { name: "Paged" } })
    expect(project.status).toBe(201)
    projectId = project.body.data.id
    // Another project of the same org, with its own 3 seeded tags, which must never show up.
    const other = await server.request("POST", "/api/v1/projects", { key, body: { name: "Other" } })
    expect(other.status).toBe(201)
    otherProjectId = other.body.data.id

    for (let i = 1; i <= 27; i++) {
      const tag = await server.request("POST", "/api/v1/tags", {
        key,
        project: projectId,
        body: { name: `tag ${String(i).padStart(2, "0")}` }
      })
      expect(tag.status).toBe(201)
    }
    const all = await get("/api/v1/tags?per_page=100")
    expect(all.status).toBe(200)
    tagIds = ids(all)
    expect(tagIds).toHaveLength(30)

    const listOrg = await server.createOrganization("Listed")
    listOrgKey = (await server.createKey(listOrg.id, ["projects:read", "projects:write"])).key
    listOrgProjectIds = []
    for (let i = 1; i <= 5; i++) {
      const created = await server.request("POST", "/api/v1/projects", { key: listOrgKey, body: { name: `P${i}` } })
      expect(created.status).toBe(201)
      listOrgProjectIds.push(created.body.data.id)
    }
    restrictedKey = (await server.createKey(listOrg.id, ["projects:read"], {
      projectIds: [listOrgProjectIds[1]!, listOrgProjectIds[3]!]
    })).key

    const emptyOrg = await server.createOrganization("Empty")
    emptyOrgKey = (await server.createKey(emptyOrg.id, ["*"])).key
  })
  afterAll(() => server.close())

  describe("GET /tags (project-scoped)", () => {
    it("lists every tag of the project in id order, with an exact total", async () => {
      expect([...tagIds].sort((a, b) => a - b)).toEqual(tagIds)
      expect(new Set(tagIds).size).toBe(30)
      const reply = await get("/api/v1/tags")
      expect(reply.status).toBe(200)
      expectKeyOrder(reply)
      expect(ids(reply)).toEqual(tagIds.slice(0, 25))
      expect(reply.body.data.slice(0, 3).map((tag: { name: string }) => tag.name)).toEqual(["branded", "non-branded", "review"])
      expect({ links: reply.body.links, meta: reply.body.meta }).toEqual(expected({
        path: tagsPath,
        query: "",
        current: 1,
        lastPage: 2,
        perPage: 25,
        total: 30,
        from: 1,
        to: 25,
        window: [1, 2]
      }))
      // The other project's tags are its own.
      const other = await get("/api/v1/tags", key, otherProjectId)
      expect(other.body.meta.total).toBe(3)
      expect(other.body.data.every((tag: { id: number }) => !tagIds.includes(tag.id))).toBe(true)
    })

    it("first page of 15: rows 1..10, `...`, 14, 15", async () => {
      const reply = await get("/api/v1/tags?per_page=2")
      expect(reply.status).toBe(200)
      expectKeyOrder(reply)
      expect(ids(reply)).toEqual(tagIds.slice(0, 2))
      expect({ links: reply.body.links, meta: reply.body.meta }).toEqual(expected({
        path: tagsPath,
        query: "per_page=2",
        current: 1,
        lastPage: 15,
        perPage: 2,
        total: 30,
        from: 1,
        to: 2,
        window: [...range(1, 10), "...", 14, 15]
      }))
      // Spelled out once, literally.
      expect(reply.body.links).toEqual({
        first: `${tagsPath}?per_page=2&page=1`,
        last: `${tagsPath}?per_page=2&page=15`,
        prev: null,
        next: `${tagsPath}?per_page=2&page=2`
      })
      expect(reply.body.meta.links[0]).toEqual({ url: null, label: "&laquo; Previous", page: null, active: false })
      expect(reply.body.meta.links[1]).toEqual({ url: `${tagsPath}?per_page=2&page=1`, label: "1", page: 1, active: true })
      expect(reply.body.meta.links[11]).toEqual({ url: null, label: "...", page: null, active: false })
      expect(reply.body.meta.links.at(-1)).toEqual({
        url: `${tagsPath}?per_page=2&page=2`,
        label: "Next &raquo;",
        page: 2,
        active: false
      })
      expect(reply.body.meta.links).toHaveLength(15)
    })

    it("page 7 of 15 is still in the head window", async () => {
      const reply = await get("/api/v1/tags?per_page=2&page=7")
      expect(ids(reply)).toEqual(tagIds.slice(12, 14))
      expect({ links: reply.body.links, meta: reply.body.meta }).toEqual(expected({
        path: tagsPath,
        query: "per_page=2",
        current: 7,
        lastPage: 15,
        perPage: 2,
        total: 30,
        from: 13,
        to: 14,
        window: [...range(1, 10), "...", 14, 15]
      }))
    })

    it("a middle page (8 of 15) has `...` on both sides", async () => {
      const reply = await get("/api/v1/tags?per_page=2&page=8")
      expect(reply.status).toBe(200)
      expectKeyOrder(reply)
      expect(ids(reply)).toEqual(tagIds.slice(14, 16))
      expect({ links: reply.body.links, meta: reply.body.meta }).toEqual(expected({
        path: tagsPath,
        query: "per_page=2",
        current: 8,
        lastPage: 15,
        perPage: 2,
        total: 30,
        from: 15,
        to: 16,
        window: [1, 2, "...", 5, 6, 7, 8, 9, 10, 11, "...", 14, 15]
      }))
      expect(reply.body.links.prev).toBe(`${tagsPath}?per_page=2&page=7`)
      expect(reply.body.links.next).toBe(`${tagsPath}?per_page=2&page=9`)
      expect(reply.body.meta.links.filter((row: { active: boolean }) => row.active)).toEqual([
        { url: `${tagsPath}?per_page=2&page=8`, label: "8", page: 8, active: true }
      ])
    })

    it("page 9 of 15 switches to the tail window", async () => {
      const reply = await get("/api/v1/tags?per_page=2&page=9")
      expect({ links: reply.body.links, meta: reply.body.meta }).toEqual(expected({
        path: tagsPath,
        query: "per_page=2",
        current: 9,
        lastPage: 15,
        perPage: 2,
        total: 30,
        from: 17,
        to: 18,
        window: [1, 2, "...", ...range(6, 15)]
      }))
    })

    it("the last page (15 of 15): next is null", async () => {
      const reply = await get("/api/v1/tags?per_page=2&page=15")
      expect(reply.status).toBe(200)
      expectKeyOrder(reply)
      expect(ids(reply)).toEqual(tagIds.slice(28, 30))
      expect({ links: reply.body.links, meta: reply.body.meta }).toEqual(expected({
        path: tagsPath,
        query: "per_page=2",
        current: 15,
        lastPage: 15,
        perPage: 2,
        total: 30,
        from: 29,
        to: 30,
        window: [1, 2, "...", ...range(6, 15)]
      }))
      expect(reply.body.links.next).toBeNull()
      expect(reply.body.meta.links.at(-1)).toEqual({ url: null, label: "Next &raquo;", page: null, active: false })
    })

    it("a short last page counts `to` from its rows", async () => {
      const reply = await get("/api/v1/tags?per_page=7&page=5")
      expect(ids(reply)).toEqual(tagIds.slice(28, 30))
      expect({ links: reply.body.links, meta: reply.body.meta }).toEqual(expected({
        path: tagsPath,
        query: "per_page=7",
        current: 5,
        lastPage: 5,
        perPage: 7,
        total: 30,
        from: 29,
        to: 30,
        window: range(1, 5)
      }))
    })

    it("a page past the end (99): empty data, from/to null, prev to 98, next null, no active row", async () => {
      const reply = await get("/api/v1/tags?per_page=2&page=99")
      expect(reply.status).toBe(200)
      expectKeyOrder(reply)
      expect(reply.body.data).toEqual([])
      expect({ links: reply.body.links, meta: reply.body.meta }).toEqual(expected({
        path: tagsPath,
        query: "per_page=2",
        current: 99,
        lastPage: 15,
        perPage: 2,
        total: 30,
        from: null,
        to: null,
        window: [1, 2, "...", ...range(6, 15)]
      }))
      expect(reply.body.links.prev).toBe(`${tagsPath}?per_page=2&page=98`)
      expect(reply.body.meta.links[0]).toEqual({
        url: `${tagsPath}?per_page=2&page=98`,
        label: "&laquo; Previous",
        page: 98,
        active: false
      })
      expect(reply.body.meta.links.some((row: { active: boolean }) => row.active)).toBe(false)
    })

    it("link URLs keep the other query parameters in their order, with page last; meta.path has no query", async () => {
      const reply = await get("/api/v1/tags?foo=bar&page=2&per_page=2")
      expect(reply.status).toBe(200)
      expect(ids(reply)).toEqual(tagIds.slice(2, 4))
      expect({ links: reply.body.links, meta: reply.body.meta }).toEqual(expected({
        path: tagsPath,
        query: "foo=bar&per_page=2",
        current: 2,
        lastPage: 15,
        perPage: 2,
        total: 30,
        from: 3,
        to: 4,
        window: [...range(1, 10), "...", 14, 15]
      }))
      expect(reply.body.links.next).toBe(`${tagsPath}?foo=bar&per_page=2&page=3`)
      expect(reply.body.meta.path).toBe(tagsPath)
      expect(reply.body.meta.path).not.toContain("?")

      const more = await get("/api/v1/tags?per_page=2&zeta=1&page=3&alpha=a%20b")
      expect(more.status).toBe(200)
      expect(more.body.links.first).toBe(`${tagsPath}?per_page=2&zeta=1&alpha=a%20b&page=1`)
      expect(more.body.links.prev).toBe(`${tagsPath}?per_page=2&zeta=1&alpha=a%20b&page=2`)
      expect(more.body.meta.current_page).toBe(3)
    })

    it("a trailing slash on the request path is no route: 404, so meta.path and the links are always the list's own", async () => {
      const reply = await get("/api/v1/tags/?per_page=10")
      expect(reply.status).toBe(404)
      expect(reply.body).toEqual({ message: "Not found" })
    })

    it("link URLs are absolute, on the request's own scheme, host and port", async () => {
      const reply = await get("/api/v1/tags?per_page=10")
      const port = new URL(server.baseUrl).port
      expect(reply.body.meta.path).toBe(`http://127.0.0.1:${port}/api/v1/tags`)
      expect(reply.body.links.first).toBe(`http://127.0.0.1:${port}/api/v1/tags?per_page=10&page=1`)
      expect(reply.body.links.last).toBe(`http://127.0.0.1:${port}/api/v1/tags?per_page=10&page=3`)
    })

    it.each([
      ["0", 1, 30],
      ["-5", 1, 30],
      ["1", 1, 30],
      ["100", 100, 1],
      ["1000", 100, 1],
      ["99999999999999999999", 100, 1],
      ["abc", 25, 2],
      ["1.5", 25, 2],
      ["", 25, 2]
    ])("per_page=%j is clamped to %i, never an error", async (perPage, effective, lastPage) => {
      const reply = await get(`/api/v1/tags?per_page=${perPage}`)
      expect(reply.status).toBe(200)
      expectKeyOrder(reply)
      expect(reply.body.meta.per_page).toBe(effective)
      expect(reply.body.meta.last_page).toBe(lastPage)
      expect(reply.body.meta.total).toBe(30)
      expect(ids(reply)).toEqual(tagIds.slice(0, effective))
      expect(reply.body.meta.from).toBe(1)
      expect(reply.body.meta.to).toBe(Math.min(effective, 30))
      // The links keep the request's own query, per_page as sent.
      expect(reply.body.links.first).toBe(`${tagsPath}?per_page=${perPage}&page=1`)
      expect(reply.body.links.last).toBe(`${tagsPath}?per_page=${perPage}&page=${lastPage}`)
      expect(reply.body.links.next).toBe(lastPage > 1 ? `${tagsPath}?per_page=${perPage}&page=2` : null)
    })

    it("per_page=-5 pages one record at a time with the head window of 30 pages", async () => {
      const reply = await get("/api/v1/tags?per_page=-5")
      expect({ links: reply.body.links, meta: reply.body.meta }).toEqual(expected({
        path: tagsPath,
        query: "per_page=-5",
        current: 1,
        lastPage: 30,
        perPage: 1,
        total: 30,
        from: 1,
        to: 1,
        window: [...range(1, 10), "...", 29, 30]
      }))
    })

    it("per_page=1000 gives everything on one page", async () => {
      const reply = await get("/api/v1/tags?per_page=1000")
      expect(ids(reply)).toEqual(tagIds)
      expect({ links: reply.body.links, meta: reply.body.meta }).toEqual(expected({
        path: tagsPath,
        query: "per_page=1000",
        current: 1,
        lastPage: 1,
        perPage: 100,
        total: 30,
        from: 1,
        to: 30,
        window: [1]
      }))
    })

    it.each(["0", "-1", "abc", "1.5", "2.5", "1e1", "", "99999999999999999999"])(
      "page=%j counts as page 1, never an error",
      async (page) => {
        const reply = await get(`/api/v1/tags?per_page=2&page=${page}`)
        expect(reply.status).toBe(200)
        expectKeyOrder(reply)
        expect(ids(reply)).toEqual(tagIds.slice(0, 2))
        expect({ links: reply.body.links, meta: reply.body.meta }).toEqual(expected({
          path: tagsPath,
          query: "per_page=2",
          current: 1,
          lastPage: 15,
          perPage: 2,
          total: 30,
          from: 1,
          to: 2,
          window: [...range(1, 10), "...", 14, 15]
        }))
      }
    )

    // "Neither is ever an error" (docs/api.md): a repeated parameter counts by its last occurrence,
    // as PHP/Laravel read it (and as parsePageRequest intends).
    it("a repeated page parameter is not an error (the last one counts)", async () => {
      const reply = await get("/api/v1/tags?per_page=2&page=2&page=3")
      expect(reply.body).not.toHaveProperty("errors")
      expect(reply.status).toBe(200)
      expect(reply.body.meta.current_page).toBe(3)
      expect(ids(reply)).toEqual(tagIds.slice(4, 6))
    })

    it("a repeated per_page parameter is not an error (the last one counts)", async () => {
      const reply = await get("/api/v1/tags?per_page=5&per_page=2")
      expect(reply.body).not.toHaveProperty("errors")
      expect(reply.status).toBe(200)
      expect(reply.body.meta.per_page).toBe(2)
    })

    it.each([2, 7, 29, 30, 100])("walking links.next with per_page=%i visits every tag once, in id order", async (perPage) => {
      const seen: Array<number> = []
      let url: string | null = `${tagsPath}?per_page=${perPage}`
      let pages = 0
      while (url !== null) {
        expect(url.startsWith(server.baseUrl)).toBe(true)
        const reply = await get(url.slice(server.baseUrl.length))
        expect(reply.status).toBe(200)
        pages += 1
        expect(reply.body.meta.current_page).toBe(pages)
        expect(reply.body.meta.total).toBe(30)
        seen.push(...ids(reply))
        url = reply.body.links.next
        expect(pages).toBeLessThanOrEqual(30)
      }
      expect(seen).toEqual(tagIds)
      expect(pages).toBe(Math.ceil(30 / perPage))
    })

    it("walking links.prev from the last page comes back to page 1", async () => {
      const seen: Array<number> = []
      let url: string | null = `${tagsPath}?per_page=4&page=8`
      while (url !== null) {
        const reply = await get(url.slice(server.baseUrl.length))
        expect(reply.status).toBe(200)
        seen.unshift(...ids(reply))
        url = reply.body.links.prev
      }
      expect(seen).toEqual(tagIds)
    })
  })

  describe("GET /projects (organization-level)", () => {
    it("an organization with no project: total 0, last_page 1, from/to null, page-1 row active", async () => {
      const reply = await server.request("GET", "/api/v1/projects", { key: emptyOrgKey })
      expect(reply.status).toBe(200)
      expectKeyOrder(reply)
      expect(reply.body).toEqual({
        data: [],
        links: {
          first: `${projectsPath}?page=1`,
          last: `${projectsPath}?page=1`,
          prev: null,
          next: null
        },
        meta: {
          current_page: 1,
          from: null,
          last_page: 1,
          links: [
            { url: null, label: "&laquo; Previous", page: null, active: false },
            { url: `${projectsPath}?page=1`, label: "1", page: 1, active: true },
            { url: null, label: "Next &raquo;", page: null, active: false }
          ],
          path: projectsPath,
          per_page: 25,
          to: null,
          total: 0
        }
      })
    })

    it("an empty list past its end keeps the page number", async () => {
      const reply = await server.request("GET", "/api/v1/projects?page=3&per_page=10", { key: emptyOrgKey })
      expect(reply.status).toBe(200)
      expect(reply.body.data).toEqual([])
      expect({ links: reply.body.links, meta: reply.body.meta }).toEqual(expected({
        path: projectsPath,
        query: "per_page=10",
        current: 3,
        lastPage: 1,
        perPage: 10,
        total: 0,
        from: null,
        to: null,
        window: [1]
      }))
      expect(reply.body.meta.links[1].active).toBe(false)
    })

    it("the organization's projects, first, middle and last page", async () => {
      const first = await server.request("GET", "/api/v1/projects?per_page=2", { key: listOrgKey })
      expect(first.status).toBe(200)
      expectKeyOrder(first)
      expect(ids(first)).toEqual(listOrgProjectIds.slice(0, 2))
      expect({ links: first.body.links, meta: first.body.meta }).toEqual(expected({
        path: projectsPath,
        query: "per_page=2",
        current: 1,
        lastPage: 3,
        perPage: 2,
        total: 5,
        from: 1,
        to: 2,
        window: [1, 2, 3]
      }))

      const middle = await server.request("GET", "/api/v1/projects?page=2&per_page=2", { key: listOrgKey })
      expect(ids(middle)).toEqual(listOrgProjectIds.slice(2, 4))
      expect({ links: middle.body.links, meta: middle.body.meta }).toEqual(expected({
        path: projectsPath,
        query: "per_page=2",
        current: 2,
        lastPage: 3,
        perPage: 2,
        total: 5,
        from: 3,
        to: 4,
        window: [1, 2, 3]
      }))

      const last = await server.request("GET", "/api/v1/projects?per_page=2&page=3", { key: listOrgKey })
      expect(ids(last)).toEqual(listOrgProjectIds.slice(4, 5))
      expect({ links: last.body.links, meta: last.body.meta }).toEqual(expected({
        path: projectsPath,
        query: "per_page=2",
        current: 3,
        lastPage: 3,
        perPage: 2,
        total: 5,
        from: 5,
        to: 5,
        window: [1, 2, 3]
      }))

      const past = await server.request("GET", "/api/v1/projects?per_page=2&page=99", { key: listOrgKey })
      expect(past.status).toBe(200)
      expect(past.body.data).toEqual([])
      expect({ links: past.body.links, meta: past.body.meta }).toEqual(expected({
        path: projectsPath,
        query: "per_page=2",
        current: 99,
        lastPage: 3,
        perPage: 2,
        total: 5,
        from: null,
        to: null,
        window: [1, 2, 3]
      }))
    })

    it("lists only the active organization's projects (other organizations' are not counted)", async () => {
      const reply = await server.request("GET", "/api/v1/projects", { key })
      expect(reply.status).toBe(200)
      expect(ids(reply)).toEqual([projectId, otherProjectId])
      expect(reply.body.meta.total).toBe(2)
    })

    it("a key limited to some projects counts only those", async () => {
      const reply = await server.request("GET", "/api/v1/projects?per_page=1", { key: restrictedKey })
      expect(reply.status).toBe(200)
      expect(ids(reply)).toEqual([listOrgProjectIds[1]])
      expect(reply.body.meta.total).toBe(2)
      expect(reply.body.meta.last_page).toBe(2)
    })

    it("walking links.next visits every project once, in id order", async () => {
      const seen: Array<number> = []
      let url: string | null = `${projectsPath}?sort=ignored&per_page=2`
      while (url !== null) {
        expect(url.startsWith(`${projectsPath}?sort=ignored&per_page=2&page=`) || seen.length === 0).toBe(true)
        const reply = await server.request("GET", url.slice(server.baseUrl.length), { key: listOrgKey })
        expect(reply.status).toBe(200)
        seen.push(...ids(reply))
        url = reply.body.links.next
      }
      expect(seen).toEqual(listOrgProjectIds)
    })
  })
})
