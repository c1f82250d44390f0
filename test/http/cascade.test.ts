import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { backends, startServer, type TestServer } from "../support/TestServer.ts"

/**
 * Deleting a project, a monitor, a prompt or a tag removes exactly what it owns (docs/api.md,
 * "Deleting cascades in one transaction"): on SQL backends every owned row is counted by SQL, on every
 * backend the API agrees.
 */

type Sql = NonNullable<TestServer["sql"]>

/** The ids of everything one seeded project owns. */
interface Seeded {
  readonly project: number
  readonly monitors: [number, number]
  /** p1, p2 on monitor 1; p3 on monitor 2. */
  readonly prompts: [number, number, number]
  /** branded, non-branded, review, custom. */
  readonly tags: [number, number, number, number]
  /** Attachments as [prompt, tag]. */
  readonly promptTags: ReadonlyArray<readonly [number, number]>
  /** Rows inserted by SQL (empty on the memory backend). */
  readonly brands: Array<number>
  readonly segments: Array<number>
  readonly sources: Array<number>
  readonly sourceUrls: Array<number>
  /** Responses per prompt, in the order of `prompts`. */
  readonly responses: Array<Array<number>>
  /** Citations and brand mentions per response id. */
  readonly citations: Map<number, Array<number>>
  readonly mentions: Map<number, Array<number>>
}

const list = (values: ReadonlyArray<number>) => (values.length === 0 ? "(NULL)" : `(${values.join(", ")})`)

const idOf = async (sql: Sql, query: string): Promise<number> => {
  const rows = await sql(`${query} RETURNING id`)
  const id = rows[0]?.id
  if (typeof id !== "number") throw new Error(`no id from ${query}: ${JSON.stringify(rows)}`)
  return id
}

const count = async (sql: Sql, query: string): Promise<number> => {
  const rows = await sql(`SELECT count(*)::int AS n FROM ${query}`)
  return Number(rows[0]!.n)
}

describe.each(backends)("cascade delete (%s)", (backend) => {
  let server: TestServer
  let key: string

  beforeAll(async () => {
    server = await startServer(backend)
    const organization = await server.createOrganization("Cascade Org")
    key = (await server.createKey(organization.id, ["*"])).key
  })
  afterAll(() => server.close())

  const api = async (method: string, path: string, options: { project?: number; body?: unknown } = {}) =>
    server.request(method, `/api/v1${path}`, { key, project: options.project, body: options.body })

  const created = async (method: string, path: string, options: { project?: number; body?: unknown }) => {
    const reply = await api(method, path, options)
    expect(reply.status, `${method} ${path}: ${reply.text}`).toBe(201)
    return reply.body.data
  }

  /**
   * A project with 2 monitors, 3 prompts, a custom tag, tag attachments and, with SQL, brands, a
   * segment (attached to a brand), a source with 2 URLs, 2 responses per prompt, a citation and a
   * brand mention per response, and the project's own brand set by PATCH.
   */
  const seed = async (name: string): Promise<Seeded> => {
    const project = (await created("POST", "/projects", { body: { name, domain: `${name.toLowerCase()}.example` } })).id as number
    const m1 = (await created("POST", "/monitors", { project, body: { name: "M1", country: "us", platforms: ["chatgpt", "claude"] } })).id
    const m2 = (await created("POST", "/monitors", { project, body: { name: "M2", country: "de", platforms: ["gemini"] } })).id
    const tagsReply = await api("GET", "/tags", { project })
    expect(tagsReply.status).toBe(200)
    const [branded, nonBranded, review] = tagsReply.body.data.map((tag: any) => tag.id as number)
    const custom = (await created("POST", "/tags", { project, body: { name: "custom" } })).id as number
    const p1 = (await created("POST", "/prompts", { project, body: { monitor_id: m1, text: "P1", tags: [branded, custom] } })).id
    const p2 = (await created("POST", "/prompts", { project, body: { monitor_id: m1, text: "P2", tags: [nonBranded] } })).id
    const p3 = (await created("POST", "/prompts", { project, body: { monitor_id: m2, text: "P3", tags: [review, custom] } })).id
    const attach = await api("POST", `/prompts/${p2}/tags/${custom}`, { project })
    expect(attach.status).toBe(200)
    const promptTags: Array<readonly [number, number]> = [[p1, branded], [p1, custom], [p2, nonBranded], [p2, custom], [p3, review], [p3, custom]]

    const seeded: Seeded = {
      project,
      monitors: [m1, m2],
      prompts: [p1, p2, p3],
      tags: [branded, nonBranded, review, custom],
      promptTags,
      brands: [],
      segments: [],
      sources: [],
      sourceUrls: [],
      responses: [[], [], []],
      citations: new Map(),
      mentions: new Map()
    }
    const sql = server.sql
    if (sql === undefined) return seeded

    const own = await idOf(sql, `INSERT INTO brands (project_id, name) VALUES (${project}, '${name} Own')`)
    const rival = await idOf(
      sql,
      `INSERT INTO brands (project_id, name, aliases, domains) VALUES (${project}, '${name} Rival', '{rival}', '{rival.example}')`
    )
    seeded.brands.push(own, rival)
    const segment = await idOf(sql, `INSERT INTO segments (project_id, name) VALUES (${project}, 'Segment')`)
    seeded.segments.push(segment)
    await sql(`INSERT INTO brand_segments (brand_id, segment_id) VALUES (${own}, ${segment}), (${rival}, ${segment})`)
    const source = await idOf(sql, `INSERT INTO sources (project_id, domain) VALUES (${project}, 'news.example')`)
    seeded.sources.push(source)
    const url1 = await idOf(
      sql,
      `INSERT INTO source_urls (project_id, source_id, url) VALUES (${project}, ${source}, 'https://news.example/a')`
    )
    const url2 = await idOf(
      sql,
      `INSERT INTO source_urls (project_id, source_id, url) VALUES (${project}, ${source}, 'https://news.example/b')`
    )
    seeded.sourceUrls.push(url1, url2)
    const monitorOf = [m1, m1, m2]
    for (const [index, prompt] of seeded.prompts.entries()) {
      for (const platform of ["chatgpt", "claude"]) {
        const response = await idOf(
          sql,
          `INSERT INTO responses (project_id, monitor_id, prompt_id, platform, country, text, status, collected_at, analyzed_at)
           VALUES (${project}, ${monitorOf[index]}, ${prompt}, '${platform}', 'US', 'Rival is great, see news.example', 'analyzed', now(), now())`
        )
        seeded.responses[index]!.push(response)
        const citation = await idOf(
          sql,
          `INSERT INTO citations (project_id, response_id, source_id, source_url_id, url, position)
           VALUES (${project}, ${response}, ${source}, ${platform === "chatgpt" ? url1 : url2}, 'https://news.example/${platform === "chatgpt" ? "a" : "b"}', 1)`
        )
        seeded.citations.set(response, [citation])
        const mention = await idOf(
          sql,
          `INSERT INTO brand_mentions (project_id, response_id, brand_id, position, sentiment_score)
           VALUES (${project}, ${response}, ${rival}, 1, 70)`
        )
        seeded.mentions.set(response, [mention])
      }
    }
    // The project's own brand, set through the API: the delete must cope with projects.brand_id too.
    const patched = await api("PATCH", `/projects/${project}`, { body: { brand_id: own } })
    expect(patched.status, patched.text).toBe(200)
    expect(patched.body.data.brand_id).toBe(own)
    return seeded
  }

  const allResponses = (seeded: Seeded) => seeded.responses.flat()
  const allCitations = (seeded: Seeded) => [...seeded.citations.values()].flat()
  const allMentions = (seeded: Seeded) => [...seeded.mentions.values()].flat()

  /** Rows per table that belong to the seeded project, by project_id where the table has it, else by the remembered ids. */
  const countOwned = async (sql: Sql, seeded: Seeded) => {
    const p = seeded.project
    return {
      projects: await count(sql, `projects WHERE id = ${p}`),
      monitors: await count(sql, `monitors WHERE project_id = ${p} OR id IN ${list(seeded.monitors)}`),
      prompts: await count(sql, `prompts WHERE project_id = ${p} OR id IN ${list(seeded.prompts)}`),
      tags: await count(sql, `tags WHERE project_id = ${p} OR id IN ${list(seeded.tags)}`),
      prompt_tags: await count(sql, `prompt_tags WHERE prompt_id IN ${list(seeded.prompts)} OR tag_id IN ${list(seeded.tags)}`),
      brands: await count(sql, `brands WHERE project_id = ${p} OR id IN ${list(seeded.brands)}`),
      segments: await count(sql, `segments WHERE project_id = ${p} OR id IN ${list(seeded.segments)}`),
      brand_segments: await count(
        sql,
        `brand_segments WHERE brand_id IN ${list(seeded.brands)} OR segment_id IN ${list(seeded.segments)}`
      ),
      sources: await count(sql, `sources WHERE project_id = ${p} OR id IN ${list(seeded.sources)}`),
      source_urls: await count(sql, `source_urls WHERE project_id = ${p} OR id IN ${list(seeded.sourceUrls)}`),
      responses: await count(sql, `responses WHERE project_id = ${p} OR id IN ${list(allResponses(seeded))}`),
      citations: await count(
        sql,
        `citations WHERE response_id IN ${list(allResponses(seeded))} OR id IN ${list(allCitations(seeded))}`
      ),
      brand_mentions: await count(sql, `brand_mentions WHERE project_id = ${p} OR id IN ${list(allMentions(seeded))}`)
    }
  }

  /** What `seed` creates: 3 seeded tags plus 1, 3 prompts with 6 attachments, 6 responses, ... */
  const SEEDED_COUNTS = {
    projects: 1,
    monitors: 2,
    prompts: 3,
    tags: 4,
    prompt_tags: 6,
    brands: 2,
    segments: 1,
    brand_segments: 2,
    sources: 1,
    source_urls: 2,
    responses: 6,
    citations: 6,
    brand_mentions: 6
  }
  const NONE = Object.fromEntries(Object.keys(SEEDED_COUNTS).map((table) => [table, 0]))

  const promptIds = async (project: number) => {
    const reply = await api("GET", "/prompts?per_page=100", { project })
    expect(reply.status).toBe(200)
    return reply.body.data.map((prompt: any) => prompt.id as number)
  }

  it("DELETE /projects/{project} removes every row the project owns and nothing of another project", async () => {
    const doomed = await seed("Doomed")
    const survivor = await seed("Survivor")
    if (server.sql) {
      expect(await countOwned(server.sql, doomed)).toEqual(SEEDED_COUNTS)
      expect(await countOwned(server.sql, survivor)).toEqual(SEEDED_COUNTS)
    }

    const reply = await api("DELETE", `/projects/${doomed.project}`)
    expect(reply.status, reply.text).toBe(204)
    expect(reply.text).toBe("")

    if (server.sql) {
      expect(await countOwned(server.sql, doomed)).toEqual(NONE)
      expect(await countOwned(server.sql, survivor)).toEqual(SEEDED_COUNTS)
      const [project] = await server.sql(`SELECT brand_id FROM projects WHERE id = ${survivor.project}`)
      expect(project!.brand_id).toBe(survivor.brands[0])
    }

    // The API agrees.
    const gone = await api("GET", `/projects/${doomed.project}`)
    expect(gone.status).toBe(404)
    expect(gone.body).toEqual({ message: "Project not found" })
    for (const path of ["/monitors", "/prompts", "/tags", `/prompts/${doomed.prompts[0]}`, `/monitors/${doomed.monitors[0]}`]) {
      const scoped = await api("GET", path, { project: doomed.project })
      expect(scoped.status, path).toBe(404)
      expect(scoped.body, path).toEqual({ message: "Project not found" })
    }
    const patch = await api("PATCH", `/projects/${doomed.project}`, { body: { name: "Back" } })
    expect(patch.status).toBe(404)
    expect(patch.body).toEqual({ message: "Project not found" })
    const again = await api("DELETE", `/projects/${doomed.project}`)
    expect(again.status).toBe(404)
    expect(again.body).toEqual({ message: "Project not found" })

    const projects = await api("GET", "/projects?per_page=100")
    const listed = projects.body.data.map((project: any) => project.id)
    expect(listed).not.toContain(doomed.project)
    expect(listed).toContain(survivor.project)
    const me = await api("GET", "/me")
    expect(me.body.data.projects.map((project: any) => project.id)).not.toContain(doomed.project)

    // The other project is whole.
    expect(await promptIds(survivor.project)).toEqual(survivor.prompts)
    const survivorPrompt = await api("GET", `/prompts/${survivor.prompts[0]}`, { project: survivor.project })
    expect(survivorPrompt.status).toBe(200)
    expect(survivorPrompt.body.data.tags.map((tag: any) => tag.id)).toEqual([survivor.tags[0], survivor.tags[3]])
    const survivorTags = await api("GET", "/tags", { project: survivor.project })
    expect(survivorTags.body.data.map((tag: any) => tag.id)).toEqual(survivor.tags)
    const survivorMonitors = await api("GET", "/monitors", { project: survivor.project })
    expect(survivorMonitors.body.data.map((monitor: any) => monitor.id)).toEqual(survivor.monitors)
    // A prompt of the deleted project is not found from the other project either.
    const foreign = await api("GET", `/prompts/${doomed.prompts[0]}`, { project: survivor.project })
    expect(foreign.status).toBe(404)
    expect(foreign.body).toEqual({ message: "Prompt not found" })
  })

  it("DELETE /monitors/{monitor} removes its prompts and their responses, not the other monitor's", async () => {
    const seeded = await seed("Monitors")
    const [m1, m2] = seeded.monitors
    const [p1, p2, p3] = seeded.prompts

    const reply = await api("DELETE", `/monitors/${m1}`, { project: seeded.project })
    expect(reply.status, reply.text).toBe(204)
    expect(reply.text).toBe("")

    if (server.sql) {
      const sql = server.sql
      const gone = [...seeded.responses[0]!, ...seeded.responses[1]!]
      const kept = seeded.responses[2]!
      expect(await count(sql, `monitors WHERE id = ${m1}`)).toBe(0)
      expect(await count(sql, `prompts WHERE monitor_id = ${m1} OR id IN (${p1}, ${p2})`)).toBe(0)
      expect(await count(sql, `prompt_tags WHERE prompt_id IN (${p1}, ${p2})`)).toBe(0)
      expect(await count(sql, `responses WHERE monitor_id = ${m1} OR prompt_id IN (${p1}, ${p2}) OR id IN ${list(gone)}`)).toBe(0)
      expect(await count(sql, `citations WHERE response_id IN ${list(gone)}`)).toBe(0)
      expect(await count(sql, `brand_mentions WHERE response_id IN ${list(gone)}`)).toBe(0)

      expect(await count(sql, `monitors WHERE project_id = ${seeded.project}`)).toBe(1)
      expect(await count(sql, `prompts WHERE project_id = ${seeded.project}`)).toBe(1)
      expect(await count(sql, `prompts WHERE id = ${p3} AND monitor_id = ${m2}`)).toBe(1)
      expect(await count(sql, `prompt_tags WHERE prompt_id = ${p3}`)).toBe(2)
      expect(await count(sql, `responses WHERE project_id = ${seeded.project}`)).toBe(2)
      expect(await count(sql, `responses WHERE id IN ${list(kept)}`)).toBe(2)
      expect(await count(sql, `citations WHERE response_id IN ${list(kept)}`)).toBe(2)
      expect(await count(sql, `brand_mentions WHERE response_id IN ${list(kept)}`)).toBe(2)
      // Tags, brands, segments and sources belong to the project, not to the monitor.
      expect(await count(sql, `tags WHERE project_id = ${seeded.project}`)).toBe(4)
      expect(await count(sql, `brands WHERE project_id = ${seeded.project}`)).toBe(2)
      expect(await count(sql, `segments WHERE project_id = ${seeded.project}`)).toBe(1)
      expect(await count(sql, `sources WHERE project_id = ${seeded.project}`)).toBe(1)
      expect(await count(sql, `source_urls WHERE project_id = ${seeded.project}`)).toBe(2)
    }

    const monitor = await api("GET", `/monitors/${m1}`, { project: seeded.project })
    expect(monitor.status).toBe(404)
    expect(monitor.body).toEqual({ message: "Monitor not found" })
    for (const prompt of [p1, p2]) {
      const gone = await api("GET", `/prompts/${prompt}`, { project: seeded.project })
      expect(gone.status).toBe(404)
      expect(gone.body).toEqual({ message: "Prompt not found" })
    }
    expect(await promptIds(seeded.project)).toEqual([p3])
    const kept = await api("GET", `/prompts/${p3}`, { project: seeded.project })
    expect(kept.status).toBe(200)
    expect(kept.body.data.monitor_id).toBe(m2)
    expect(kept.body.data.tags.map((tag: any) => tag.id)).toEqual([seeded.tags[2], seeded.tags[3]])
    const monitors = await api("GET", "/monitors", { project: seeded.project })
    expect(monitors.body.data.map((monitor: any) => monitor.id)).toEqual([m2])
    const tags = await api("GET", "/tags", { project: seeded.project })
    expect(tags.body.data.map((tag: any) => tag.id)).toEqual(seeded.tags)
  })

  it("moving a prompt to the other monitor keeps the prompt's tags and responses; deleting it then removes them", async () => {
    const seeded = await seed("Mover")
    const [, m2] = seeded.monitors
    const [p1] = seeded.prompts
    const moved = await api("PATCH", `/prompts/${p1}`, { project: seeded.project, body: { monitor_id: m2 } })
    expect(moved.status, moved.text).toBe(200)
    expect(moved.body.data.monitor_id).toBe(m2)
    expect(moved.body.data.tags.map((tag: any) => tag.id)).toEqual([seeded.tags[0], seeded.tags[3]])
    if (server.sql) {
      expect(await count(server.sql, `prompts WHERE id = ${p1} AND monitor_id = ${m2}`)).toBe(1)
      expect(await count(server.sql, `responses WHERE prompt_id = ${p1}`)).toBe(2)
      expect(await count(server.sql, `prompt_tags WHERE prompt_id = ${p1}`)).toBe(2)
    }
    const reply = await api("DELETE", `/monitors/${m2}`, { project: seeded.project })
    expect(reply.status, reply.text).toBe(204)
    if (server.sql) {
      expect(await count(server.sql, `prompts WHERE id = ${p1}`)).toBe(0)
      expect(await count(server.sql, `responses WHERE prompt_id = ${p1}`)).toBe(0)
      expect(await count(server.sql, `prompt_tags WHERE prompt_id = ${p1}`)).toBe(0)
    }
    expect(await promptIds(seeded.project)).toEqual([seeded.prompts[1]])
  })

  it("DELETE /prompts/{prompt} removes its tag attachments and responses, nothing else", async () => {
    const seeded = await seed("Prompts")
    const [p1, p2, p3] = seeded.prompts
    const [branded, nonBranded, , custom] = seeded.tags

    const reply = await api("DELETE", `/prompts/${p1}`, { project: seeded.project })
    expect(reply.status, reply.text).toBe(204)
    expect(reply.text).toBe("")

    if (server.sql) {
      const sql = server.sql
      const gone = seeded.responses[0]!
      const kept = [...seeded.responses[1]!, ...seeded.responses[2]!]
      expect(await count(sql, `prompts WHERE id = ${p1}`)).toBe(0)
      expect(await count(sql, `prompt_tags WHERE prompt_id = ${p1}`)).toBe(0)
      expect(await count(sql, `responses WHERE prompt_id = ${p1} OR id IN ${list(gone)}`)).toBe(0)
      expect(await count(sql, `citations WHERE response_id IN ${list(gone)}`)).toBe(0)
      expect(await count(sql, `brand_mentions WHERE response_id IN ${list(gone)}`)).toBe(0)

      expect(await count(sql, `prompts WHERE project_id = ${seeded.project}`)).toBe(2)
      expect(await count(sql, `prompt_tags WHERE prompt_id IN (${p2}, ${p3})`)).toBe(4)
      expect(await count(sql, `tags WHERE id IN ${list(seeded.tags)}`)).toBe(4)
      expect(await count(sql, `responses WHERE id IN ${list(kept)}`)).toBe(4)
      expect(await count(sql, `citations WHERE response_id IN ${list(kept)}`)).toBe(4)
      expect(await count(sql, `brand_mentions WHERE response_id IN ${list(kept)}`)).toBe(4)
      expect(await count(sql, `monitors WHERE id IN ${list(seeded.monitors)}`)).toBe(2)
      expect(await count(sql, `source_urls WHERE project_id = ${seeded.project}`)).toBe(2)
    }

    const gone = await api("GET", `/prompts/${p1}`, { project: seeded.project })
    expect(gone.status).toBe(404)
    expect(gone.body).toEqual({ message: "Prompt not found" })
    expect(await promptIds(seeded.project)).toEqual([p2, p3])
    const other = await api("GET", `/prompts/${p2}`, { project: seeded.project })
    expect(other.body.data.tags.map((tag: any) => tag.id)).toEqual([nonBranded, custom])
    const tag = await api("GET", `/tags/${branded}`, { project: seeded.project })
    expect(tag.status).toBe(200)
  })

  it("DELETE /tags/{tag} removes its prompt_tags rows only", async () => {
    const seeded = await seed("Tags")
    const [p1, p2, p3] = seeded.prompts
    const [branded, nonBranded, review, custom] = seeded.tags

    const reply = await api("DELETE", `/tags/${custom}`, { project: seeded.project })
    expect(reply.status, reply.text).toBe(204)
    expect(reply.text).toBe("")

    if (server.sql) {
      const sql = server.sql
      expect(await count(sql, `tags WHERE id = ${custom}`)).toBe(0)
      expect(await count(sql, `prompt_tags WHERE tag_id = ${custom}`)).toBe(0)
      expect(await count(sql, `prompt_tags WHERE prompt_id IN ${list(seeded.prompts)}`)).toBe(3)
      expect(await count(sql, `tags WHERE project_id = ${seeded.project}`)).toBe(3)
      expect(await count(sql, `prompts WHERE id IN ${list(seeded.prompts)}`)).toBe(3)
      expect(await count(sql, `responses WHERE id IN ${list(allResponses(seeded))}`)).toBe(6)
      expect(await count(sql, `citations WHERE id IN ${list(allCitations(seeded))}`)).toBe(6)
      expect(await count(sql, `brand_mentions WHERE id IN ${list(allMentions(seeded))}`)).toBe(6)
      expect(await count(sql, `monitors WHERE project_id = ${seeded.project}`)).toBe(2)
    }

    const gone = await api("GET", `/tags/${custom}`, { project: seeded.project })
    expect(gone.status).toBe(404)
    expect(gone.body).toEqual({ message: "Tag not found" })
    expect(await promptIds(seeded.project)).toEqual(seeded.prompts)
    const expected: Record<number, Array<number>> = { [p1]: [branded], [p2]: [nonBranded], [p3]: [review] }
    for (const prompt of seeded.prompts) {
      const read = await api("GET", `/prompts/${prompt}`, { project: seeded.project })
      expect(read.status).toBe(200)
      expect(read.body.data.tags.map((tag: any) => tag.id)).toEqual(expected[prompt])
    }
  })
})
