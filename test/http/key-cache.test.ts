import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { backends, startServer, type TestServer } from "../support/TestServer.ts"

/**
 * On PostgreSQL the server keeps the keys it has seen, with their projects (src/ApiKeys/KeyCache.ts):
 * a change made elsewhere (the CLI, another server process, a DBA's statement) must still take effect,
 * as soon as the database announces it. Here the change is a statement sent around the API; on the
 * embedded database, which caches nothing, it takes effect at once. What the server changes itself
 * takes effect at once everywhere (api-keys.test.ts, brands.test.ts: `is_own` follows `brand_id`).
 */

/** Asks until `done` holds, for at most `ms`; the last reply. */
const until = async <A>(ask: () => Promise<A>, done: (reply: A) => boolean, ms = 3_000) => {
  const deadline = Date.now() + ms
  let reply = await ask()
  while (!done(reply) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 25))
    reply = await ask()
  }
  return reply
}

describe.each(backends.filter((backend) => backend !== "memory"))("keys changed outside the server (%s)", (backend) => {
  let server: TestServer
  let sql: NonNullable<TestServer["sql"]>
  let organization: number

  beforeAll(async () => {
    server = await startServer(backend)
    sql = server.sql!
    organization = (await server.createOrganization("Cache")).id
  })
  afterAll(() => server.close())

  const newProject = async (key: string, name: string) =>
    (await server.request("POST", "/api/v1/projects", { key, body: { name } })).body.data.id as number

  it("caches keys on PostgreSQL only, while a connection of its own listens for their changes", async () => {
    const { key } = await server.createKey(organization, ["projects:read"])
    expect((await server.request("GET", "/api/v1/me", { key })).status).toBe(200)
    const [listening] = await sql(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'brand-visibility-monitor (key cache)'"
    )
    expect(listening!.n).toBe(backend === "postgres" ? 1 : 0)
  })

  it("keeps a key on PostgreSQL, so that a change it is not told of waits for KEY_CACHE_SECONDS; not on the embedded database", async () => {
    const short = await startServer(backend, { keyCacheSeconds: 2 })
    try {
      const organization = (await short.createOrganization("Short cache")).id
      // A revocation the database does not announce (its triggers off for the statement, as a replica's
      // apply would run it). The cache turns on once its listener hears its own probe, at start-up.
      const revokeSilently = (id: number) =>
        short.sql!(`BEGIN; SET LOCAL session_replication_role = replica; UPDATE api_keys SET revoked_at = now() WHERE id = ${id}; COMMIT`)
      let still = 0
      let revokedAt = 0
      let key = ""
      for (let attempt = 0; attempt < 20; attempt++) {
        const made = await short.createKey(organization, ["projects:read"])
        key = made.key
        expect((await short.request("GET", "/api/v1/me", { key })).status).toBe(200)
        await revokeSilently(made.id)
        revokedAt = Date.now()
        still = (await short.request("GET", "/api/v1/me", { key })).status
        if (backend !== "postgres" || still === 200) break
        // The listener has not heard its probe yet: nothing is cached so far.
        await new Promise((resolve) => setTimeout(resolve, 250))
      }
      expect(still).toBe(backend === "postgres" ? 200 : 401)
      if (backend === "postgres") {
        // Trusted for at most KEY_CACHE_SECONDS, then read again: refused.
        const refused = await until(() => short.request("GET", "/api/v1/me", { key }), (reply) => reply.status === 401, 5_000)
        expect(refused.status).toBe(401)
        expect(Date.now() - revokedAt).toBeLessThan(4_000)
      }
    } finally {
      await short.close()
    }
  })

  it("caches nothing with KEY_CACHE_SECONDS=0 (a pooler in transaction mode cannot LISTEN)", async () => {
    const uncached = await startServer(backend, { keyCacheSeconds: 0 })
    try {
      const organization = (await uncached.createOrganization("Uncached")).id
      const { id, key } = await uncached.createKey(organization, ["projects:read"])
      expect((await uncached.request("GET", "/api/v1/me", { key })).status).toBe(200)
      const [listening] = await uncached.sql!(
        "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'brand-visibility-monitor (key cache)'"
      )
      expect(listening!.n).toBe(0)
      // Refused at once, however the key was revoked.
      await uncached.sql!(`UPDATE api_keys SET revoked_at = now() WHERE id = ${id}`)
      expect((await uncached.request("GET", "/api/v1/me", { key })).status).toBe(401)
    } finally {
      await uncached.close()
    }
  })

  it("a key revoked by a statement is refused once the database announces it", async () => {
    const { id, key } = await server.createKey(organization, ["*"])
    const project = await newProject(key, "Revoked elsewhere")
    // Used twice, with and without a project: cached both ways.
    for (let i = 0; i < 2; i++) {
      expect((await server.request("GET", "/api/v1/tags", { key, project })).status).toBe(200)
      expect((await server.request("GET", "/api/v1/me", { key })).status).toBe(200)
    }
    await sql(`UPDATE api_keys SET revoked_at = now() WHERE id = ${id}`)
    const refused = await until(() => server.request("GET", "/api/v1/tags", { key, project }), (reply) => reply.status === 401)
    expect(refused.status).toBe(401)
    expect(refused.body).toEqual({ message: "Unauthenticated." })
    expect((await server.request("GET", "/api/v1/me", { key })).status).toBe(401)
  })

  it("a key narrowed to fewer projects by a statement loses the others", async () => {
    const admin = (await server.createKey(organization, ["*"])).key
    const kept = await newProject(admin, "Kept")
    const dropped = await newProject(admin, "Dropped")
    const { id, key } = await server.createKey(organization, ["tags:read"], { projectIds: [kept, dropped] })
    expect((await server.request("GET", "/api/v1/tags", { key, project: dropped })).status).toBe(200)
    await sql(`UPDATE api_keys SET project_ids = ARRAY[${kept}]::bigint[] WHERE id = ${id}`)
    const gone = await until(() => server.request("GET", "/api/v1/tags", { key, project: dropped }), (reply) => reply.status === 404)
    expect(gone.status).toBe(404)
    expect(gone.body).toEqual({ message: "Project not found" })
    expect((await server.request("GET", "/api/v1/tags", { key, project: kept })).status).toBe(200)
  })

  it("a project deleted by a statement is not found", async () => {
    const { key } = await server.createKey(organization, ["*"])
    const project = await newProject(key, "Deleted elsewhere")
    expect((await server.request("GET", "/api/v1/tags", { key, project })).status).toBe(200)
    await sql(`DELETE FROM projects WHERE id = ${project}`)
    const gone = await until(() => server.request("GET", "/api/v1/tags", { key, project }), (reply) => reply.status === 404)
    expect(gone.status).toBe(404)
    expect(gone.body).toEqual({ message: "Project not found" })
  })

  it("GET /me shows the key's last use as stored, cached or not", async () => {
    const { id, key } = await server.createKey(organization, ["projects:read"])
    expect((await server.request("GET", "/api/v1/me", { key })).body.data.key.last_used_at).toBeNull()
    for (let i = 0; i < 3; i++) {
      const shown = (await server.request("GET", "/api/v1/me", { key })).body.data.key.last_used_at as string
      const [stored] = await sql(`SELECT last_used_at FROM api_keys WHERE id = ${id}`)
      expect(shown).toBe((stored!.last_used_at as Date).toISOString())
    }
  })
})
