import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { encodeCursor, FOREIGN_CURSOR, INVALID_CURSOR, listText } from "../../src/Http/Cursor.ts"
import { backends, startServer, type TestServer } from "../support/TestServer.ts"

/**
 * Reading a whole list by cursor (docs/api.md, "Reading a whole list: cursors"): `cursor` beside `page` on
 * /responses, /citations and /brand-mentions. Walking a list by cursor gives exactly the list read whole,
 * in its order, for every order and filter; the envelope is the cursor one; a cursor is good for its own
 * list only (endpoint, project, filters, order); bad ones are 422s on `cursor`; rows inserted during a
 * walk never make a row come twice or go missing.
 */

describe.each(backends)("lists read by cursor (%s)", (backend) => {
  let server: TestServer
  let key: string
  let otherKey: string
  let project: number
  let emptyProject: number
  let otherProject: number
  let monitor: number
  let prompt: number
  let acme: number

  const get = (path: string, projectId: number = project, withKey: string = key) =>
    server.request("GET", `/api/v1${path}`, { key: withKey, project: projectId })
  const ok = async (path: string, projectId: number = project, withKey: string = key) => {
    const reply = await get(path, projectId, withKey)
    expect(reply.status, `${path} ${reply.text}`).toBe(200)
    return reply.body
  }
  const post = async (path: string, body: unknown, projectId: number = project, withKey: string = key) => {
    const reply = await server.request("POST", `/api/v1${path}`, { key: withKey, project: projectId, body })
    expect(reply.status, reply.text).toBe(201)
    return reply.body.data.id as number
  }
  const answer = (day: string, text: string, promptId: number = prompt, projectId: number = project, withKey: string = key) =>
    post("/responses", {
      prompt_id: promptId,
      platform: day.endsWith("2") ? "claude" : "chatgpt",
      text,
      collected_at: `${day}T10:00:00.000Z`
    }, projectId, withKey)
  const join = (path: string, query: string) => `${path}${path.includes("?") ? "&" : "?"}${query}`

  /** Every row of a list, page after page by cursor, following `links.next`; the answers too. */
  const walk = async (path: string, perPage: number, projectId: number = project) => {
    const rows: Array<{ id: number }> = []
    const answers = []
    let url: string | null = `${server.baseUrl}/api/v1${join(path, `per_page=${perPage}&cursor=`)}`
    while (url !== null) {
      const body = await ok(url.slice(`${server.baseUrl}/api/v1`.length), projectId)
      answers.push(body)
      rows.push(...body.data)
      url = body.links.next
      expect(answers.length, path).toBeLessThan(100)
    }
    return { rows, answers }
  }

  beforeAll(async () => {
    server = await startServer(backend)
    const organization = await server.createOrganization("Cursors")
    key = (await server.createKey(organization.id, ["*"])).key
    const other = await server.createOrganization("Other cursors")
    otherKey = (await server.createKey(other.id, ["*"])).key
    project = await post("/projects", { name: "Walked" })
    emptyProject = await post("/projects", { name: "Empty" })
    otherProject = await post("/projects", { name: "Theirs" }, undefined, otherKey)
    monitor = await post("/monitors", { name: "US", country: "US", platforms: ["chatgpt", "claude"] })
    prompt = await post("/prompts", { monitor_id: monitor, text: "Best CRM?" })
    acme = await post("/brands", { name: "Acme" })
    await post("/brands", { name: "Globex" })
    await post("/brands", { name: "Initech" })
    // Seven answers on four days (two share a day and an instant: the id breaks the tie), 0-3 brands, 1-2 citations.
    const days = ["2026-11-03", "2026-11-01", "2026-11-02", "2026-11-01", "2026-11-04", "2026-11-02", "2026-11-03"]
    const texts = [
      "Acme and Globex. https://a.example/1 https://b.example/1",
      "Globex, then Acme, then Initech. https://a.example/2",
      "Initech. https://c.example/3",
      "Nothing named here. https://a.example/4 https://c.example/4",
      "Acme. https://b.example/5",
      "Globex and Initech and Acme. https://a.example/6",
      "Acme, Initech. https://c.example/7 https://a.example/7"
    ]
    for (const [i, day] of days.entries()) await answer(day, texts[i]!)
    const theirMonitor = await post("/monitors", { name: "GB", country: "GB", platforms: ["chatgpt"] }, otherProject, otherKey)
    const theirPrompt = await post("/prompts", { monitor_id: theirMonitor, text: "Best CRM?" }, otherProject, otherKey)
    await post("/brands", { name: "Acme" }, otherProject, otherKey)
    for (const day of ["2026-11-01", "2026-11-03"]) await answer(day, "Acme. https://theirs.example/", theirPrompt, otherProject, otherKey)
  })
  afterAll(() => server.close())

  const lists = () => [
    "/responses",
    "/responses?sort_by=collected_at&sort_order=desc",
    "/responses?sort_by=collected_at&sort_order=asc",
    "/responses?sort_by=id&sort_order=desc",
    "/responses?platform=chatgpt",
    "/responses?platforms[]=claude&start_date=2026-11-01&end_date=2026-11-02",
    "/citations",
    "/citations?platforms[]=chatgpt",
    "/citations?start_date=2026-11-02&end_date=2026-11-03",
    ...["created_at", "updated_at", "collected_at", "position", "sentiment_score", "id"].flatMap((by) =>
      ["asc", "desc"].flatMap((direction) => [
        `/brand-mentions?sort_by=${by}&sort_order=${direction}`,
        `/brand-mentions?sort_by=${by}&sort_order=${direction}&brand_id=${acme}`,
        `/brand-mentions?sort_by=${by}&sort_order=${direction}&start_date=2026-11-02&end_date=2026-11-03`
      ])
    ),
    "/brand-mentions",
    "/brand-mentions?include=brand"
  ]

  it("walks every list, in every order and with filters, to exactly the rows it gives whole", async () => {
    for (const list of lists()) {
      const whole = (await ok(join(list, "per_page=100"))).data
      expect(whole.length, list).toBeGreaterThan(0)
      // Every order of mentions by three; the others by one, by three and whole.
      for (const perPage of list.startsWith("/brand-mentions?sort_by") ? [3] : [1, 3, 100]) {
        const { answers, rows } = await walk(list, perPage)
        expect(rows, `${list} by ${perPage}`).toEqual(whole)
        // Full pages until the last, which says there is nothing after it; an exact multiple ends on a full page.
        expect(answers.length, `${list} by ${perPage}`).toBe(Math.max(1, Math.ceil(whole.length / perPage)))
        expect(answers.slice(0, -1).every((a) => a.data.length === perPage && a.meta.next_cursor !== null)).toBe(true)
        expect(answers.at(-1).meta.next_cursor).toBeNull()
        expect(answers.at(-1).links.next).toBeNull()
      }
    }
    // The included relations come by cursor too.
    const [first] = (await ok("/brand-mentions?include=brand&cursor=")).data
    expect(first.brand.id).toBeGreaterThan(0)
  })

  it("answers in the cursor envelope, its next link keeping the query with the cursor last", async () => {
    const body = await ok("/responses?per_page=2&platform=chatgpt&cursor=&sort_order=desc")
    expect(Object.keys(body)).toEqual(["data", "links", "meta"])
    expect(Object.keys(body.links)).toEqual(["next"])
    expect(Object.keys(body.meta)).toEqual(["path", "per_page", "next_cursor"])
    expect(body.meta.path).toBe(`${server.baseUrl}/api/v1/responses`)
    expect(body.meta.per_page).toBe(2)
    expect(body.meta.next_cursor).toMatch(/^[A-Za-z0-9_-]+$/)
    expect(body.links.next).toBe(
      `${server.baseUrl}/api/v1/responses?per_page=2&platform=chatgpt&sort_order=desc&cursor=${body.meta.next_cursor}`
    )
    // per_page is clamped as for pages, and may change between pages of one walk.
    expect((await ok("/responses?per_page=500&cursor=")).meta.per_page).toBe(100)
    expect((await ok("/responses?per_page=x&cursor=")).meta.per_page).toBe(25)
    const rest = await ok(`/responses?per_page=100&platform=chatgpt&sort_order=desc&cursor=${body.meta.next_cursor}`)
    const whole = (await ok("/responses?per_page=100&platform=chatgpt&sort_order=desc")).data
    expect([...body.data, ...rest.data]).toEqual(whole)
    // A page-number request keeps the pagination envelope exactly.
    const paged = await ok("/responses?per_page=2")
    expect(Object.keys(paged.meta)).toEqual(["current_page", "from", "last_page", "links", "path", "per_page", "to", "total"])
    expect(paged.meta.total).toBe(7)
  })

  it("answers an empty list, and a filter that keeps nothing, with no rows and no next cursor", async () => {
    for (const path of ["/responses?cursor=", "/citations?cursor=", "/brand-mentions?cursor="]) {
      const body = await ok(path, emptyProject)
      expect(body, path).toEqual({ data: [], links: { next: null }, meta: { path: expect.any(String), per_page: 25, next_cursor: null } })
    }
    const none = await ok("/responses?cursor=&start_date=2026-10-01&end_date=2026-10-02")
    expect(none.data).toEqual([])
    expect(none.meta.next_cursor).toBeNull()
  })

  it("shows only the project's own rows by cursor", async () => {
    const ours = new Set((await walk("/responses", 2)).rows.map((row) => row.id))
    // This key has no access to the other organization's project, cursor or not.
    expect((await get("/responses?cursor=", otherProject)).status).toBe(404)
    const theirRows = []
    let url: string | null = "/responses?per_page=1&cursor="
    while (url !== null) {
      const body = await ok(url, otherProject, otherKey)
      theirRows.push(...body.data)
      url = body.links.next === null ? null : body.links.next.slice(`${server.baseUrl}/api/v1`.length)
    }
    expect(theirRows).toHaveLength(2)
    expect(theirRows.some((row: { id: number }) => ours.has(row.id))).toBe(false)
    for (const path of ["/citations?cursor=", "/brand-mentions?cursor="]) {
      const body = await ok(path, otherProject, otherKey)
      expect(body.data.length, path).toBeGreaterThan(0)
      const ourResponses = new Set((await ok(path.replace("cursor=", "per_page=100"))).data.map((row: { response_id: number }) => row.response_id))
      expect(body.data.some((row: { response_id: number }) => ourResponses.has(row.response_id)), path).toBe(false)
    }
  })

  const invalid = (reply: { status: number; body: unknown }, message: string) => {
    expect(reply.status).toBe(422)
    expect(reply.body).toEqual({ message: "The given data was invalid.", errors: { cursor: [message] } })
  }

  it("refuses a cursor that is not one, or was altered, with a 422 on cursor", async () => {
    const real = (await ok("/responses?per_page=1&cursor=")).meta.next_cursor as string
    const json = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url")
    const altered = real.slice(0, 5) + (real[5] === "A" ? "B" : "A") + real.slice(6)
    const bad = [
      "abc",
      "%%%",
      "a.b",
      "x".repeat(600),
      Buffer.from("not json").toString("base64url"),
      json({ after: 3 }),
      json([[3]]),
      json([3, "digest"]),
      json([[3], 7]),
      json([[3], "digest"]),
      altered
    ]
    for (const cursor of bad) {
      const reply = await get(`/responses?cursor=${encodeURIComponent(cursor)}`)
      expect(reply.status, cursor).toBe(422)
      expect([INVALID_CURSOR, FOREIGN_CURSOR], cursor).toContain(reply.body.errors.cursor[0])
    }
    invalid(await get("/responses?cursor=abc"), INVALID_CURSOR)
    invalid(await get(`/responses?cursor=${json([[3], "digest"])}`), FOREIGN_CURSOR)
    for (const path of ["/citations", "/brand-mentions"]) invalid(await get(`${path}?cursor=abc`), INVALID_CURSOR)
    // Forged with the right digest (it is no secret): values of the wrong kind never reach a query.
    const forged = (endpoint: string, query: string, key: ReadonlyArray<unknown>) =>
      encodeCursor(listText(endpoint, project, new URLSearchParams(query)), key as ReadonlyArray<number | string>)
    const byDate = "sort_by=collected_at"
    for (const [endpoint, query, key] of [
      ["responses", "", ["x"]],
      ["responses", "", [1.5]],
      ["responses", "", [1, 2]],
      ["responses", "", []],
      ["responses", byDate, [3, 3]],
      ["responses", byDate, ["2026-13-45T10:00:00.000Z", 3]],
      ["responses", byDate, ["2026-11-01", 3]],
      ["responses", byDate, ["2026-11-01T10:00:00.000Z", "3"]],
      ["citations", "", [null]],
      ["brand-mentions", "", [{}, 1]]
    ] as const) {
      invalid(await get(`/${endpoint}?${query}${query === "" ? "" : "&"}cursor=${forged(endpoint, query, key)}`), INVALID_CURSOR)
    }
    // One of the right kinds starts the project's own list there, like any other.
    const [, second] = (await ok("/responses?per_page=2")).data
    const fromForged = await ok(`/responses?per_page=100&cursor=${forged("responses", "", [second.id - 1])}`)
    expect(fromForged.data[0].id).toBe(second.id)
  })

  it("refuses a cursor made for another list, filters, order or project", async () => {
    const next = async (path: string, projectId: number = project, withKey: string = key) =>
      (await ok(join(path, "per_page=1&cursor="), projectId, withKey)).meta.next_cursor as string
    const responses = await next("/responses")
    const byDate = await next("/responses?sort_by=collected_at")
    const chatgpt = await next("/responses?platform=chatgpt")
    const citations = await next("/citations")
    const mentions = await next("/brand-mentions")
    const theirs = await next("/responses", otherProject, otherKey)
    const response = (await ok("/responses")).data[0].id
    // Each is good for its own list.
    for (const [path, cursor] of [["/responses", responses], ["/responses?sort_by=collected_at", byDate], ["/citations", citations]] as const) {
      expect((await get(join(path, `cursor=${cursor}`))).status, path).toBe(200)
    }
    const foreign: ReadonlyArray<readonly [string, string]> = [
      ["/citations", responses],
      ["/brand-mentions", responses],
      ["/responses", citations],
      ["/responses", mentions],
      ["/responses?sort_by=collected_at&sort_order=desc", byDate],
      ["/responses?sort_order=desc", responses],
      ["/responses", chatgpt],
      ["/responses?platform=claude", chatgpt],
      ["/responses?platform=chatgpt", responses],
      [`/citations?response_id=${response}`, citations],
      ["/brand-mentions?sort_by=id", mentions],
      ["/responses", theirs]
    ]
    for (const [path, cursor] of foreign) invalid(await get(join(path, `cursor=${cursor}`)), FOREIGN_CURSOR)
    // Another organization's key with our cursor, on its own project.
    invalid(await get(`/responses?cursor=${responses}`, otherProject, otherKey), FOREIGN_CURSOR)
  })

  it("refuses page and cursor together, whatever the page", async () => {
    for (const query of ["page=1&cursor=", "page=2&cursor=", "cursor=&page=x"]) {
      invalid(await get(`/responses?${query}`), "The cursor field cannot be combined with page.")
    }
  })

  it("checks the filters, the project header and the key before the cursor", async () => {
    const reply = await get("/responses?platform=bing&cursor=abc")
    expect(reply.status).toBe(422)
    expect(Object.keys(reply.body.errors)).toEqual(["platform"])
    expect((await server.request("GET", "/api/v1/responses?cursor=abc", { key })).status).toBe(400)
    expect((await server.request("GET", "/api/v1/responses?cursor=abc", { project })).status).toBe(401)
  })

  it("neither repeats nor skips a row when rows are inserted during a walk", async () => {
    for (const list of ["/responses", "/citations", "/brand-mentions", "/responses?sort_by=collected_at&sort_order=desc"]) {
      const before = (await ok(join(list, "per_page=100"))).data.map((row: { id: number }) => row.id)
      const first = await ok(join(list, "per_page=3&cursor="))
      // One answer collected after every other (the first by date, newest first), one in between; both mention Acme.
      const ahead = await answer("2026-11-05", "Acme, ahead. https://a.example/ahead")
      const between = await answer("2026-11-02", "Acme, between. https://a.example/between")
      const seen = first.data.map((row: { id: number }) => row.id)
      let url: string | null = first.links.next
      while (url !== null) {
        const body = await ok(url.slice(`${server.baseUrl}/api/v1`.length))
        seen.push(...body.data.map((row: { id: number }) => row.id))
        url = body.links.next
      }
      expect(new Set(seen).size, list).toBe(seen.length)
      expect(seen.filter((id: number) => before.includes(id)), list).toEqual(before)
      // Newer ids come last by id; a row sorting before the cursor is not in the rest of the walk, one after it is.
      if (list === "/responses") expect(seen.slice(-2)).toEqual([ahead, between])
      if (list.includes("collected_at")) {
        expect(seen).not.toContain(ahead)
        expect(seen).toContain(between)
      }
    }
  })
})
