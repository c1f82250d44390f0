import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { abilities } from "../../src/Domain/Ability.ts"
import { hashKey } from "../../src/Domain/ApiKey.ts"
import { backends, startServer, type TestServer } from "../support/TestServer.ts"

/**
 * Key management (docs/api.md, "API keys"): a key with `keys:manage` lists, makes and revokes its
 * organization's keys, never beyond what it holds itself (abilities, projects, expiry); the full key is
 * answered once and only its hash is stored; a revoked key is refused at once.
 */

const INVALID = "The given data was invalid."
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString()

describe.each(backends)("API keys (%s)", (backend) => {
  let server: TestServer
  let organization: number
  let admin: string
  let projectA: number
  let projectB: number

  beforeAll(async () => {
    server = await startServer(backend)
    organization = (await server.createOrganization("Keys")).id
    admin = (await server.createKey(organization, ["*"], { name: "admin" })).key
    projectA = (await server.request("POST", "/api/v1/projects", { key: admin, body: { name: "A" } })).body.data.id
    projectB = (await server.request("POST", "/api/v1/projects", { key: admin, body: { name: "B" } })).body.data.id
  })
  afterAll(() => server.close())

  const create = (key: string, body: unknown) => server.request("POST", "/api/v1/api-keys", { key, body })

  it("makes a key, answered once in full; it works at once, and only its hash and prefix are kept", async () => {
    const reply = await create(admin, { name: "  Looker Studio  ", abilities: ["analytics:read", "projects:read"], project_ids: [projectA] })
    expect(reply.status).toBe(201)
    const made = reply.body.data
    expect(Object.keys(made)).toEqual([
      "id", "name", "prefix", "abilities", "project_ids", "expires_at", "last_used_at", "revoked", "revoked_at", "created_at", "key"
    ])
    expect(made).toMatchObject({
      name: "Looker Studio",
      abilities: ["analytics:read", "projects:read"],
      project_ids: [projectA],
      expires_at: null,
      last_used_at: null,
      revoked: false,
      revoked_at: null
    })
    expect(made.key).toMatch(/^bvm_[0-9A-Za-z]{40}$/)
    expect(made.prefix).toBe(made.key.slice(0, 8))
    const me = await server.request("GET", "/api/v1/me", { key: made.key })
    expect(me.status).toBe(200)
    expect(me.body.data.abilities).toEqual(["projects:read", "analytics:read"])
    expect(me.body.data.projects.map((project: { id: number }) => project.id)).toEqual([projectA])
    // Never shown again: the list has the prefix, not the key.
    const listed = await server.request("GET", "/api/v1/api-keys?per_page=100", { key: admin })
    const row = listed.body.data.find((key: { id: number }) => key.id === made.id)
    expect(row).toEqual({ ...made, key: undefined, last_used_at: expect.any(String) })
    expect(listed.text).not.toContain(made.key)
    if (server.sql !== undefined) {
      const [stored] = await server.sql(`SELECT key_hash, prefix FROM api_keys WHERE id = ${made.id}`)
      expect(stored).toEqual({ key_hash: hashKey(made.key), prefix: made.prefix })
    }
  })

  it("lists the organization's keys by id in the page envelope, revoked ones included", async () => {
    const revoked = (await create(admin, { name: "old", abilities: ["tags:read"] })).body.data
    expect((await server.request("DELETE", `/api/v1/api-keys/${revoked.id}`, { key: admin })).status).toBe(204)
    const page = await server.request("GET", "/api/v1/api-keys?per_page=2", { key: admin })
    expect(page.status).toBe(200)
    expect(Object.keys(page.body)).toEqual(["data", "links", "meta"])
    expect(page.body.data).toHaveLength(2)
    const all = await server.request("GET", "/api/v1/api-keys?per_page=100", { key: admin })
    const ids = all.body.data.map((key: { id: number }) => key.id)
    expect(ids).toEqual([...ids].sort((a, b) => a - b))
    expect(all.body.meta.total).toBe(ids.length)
    expect(all.body.data.find((key: { id: number }) => key.id === revoked.id)).toMatchObject({ revoked: true, revoked_at: expect.any(String) })
  })

  it("revokes: the key is refused at once, revoking again changes nothing, an unknown id is not found", async () => {
    const made = (await create(admin, { name: "short-lived", abilities: ["*"] })).body.data
    expect((await server.request("GET", "/api/v1/me", { key: made.key })).status).toBe(200)
    const revoke = await server.request("DELETE", `/api/v1/api-keys/${made.id}`, { key: admin })
    expect(revoke.status).toBe(204)
    expect(revoke.text).toBe("")
    const refused = await server.request("GET", "/api/v1/me", { key: made.key })
    expect(refused.status).toBe(401)
    expect(refused.body).toEqual({ message: "Unauthenticated." })
    const listed = await server.request("GET", "/api/v1/api-keys?per_page=100", { key: admin })
    const revokedAt = listed.body.data.find((key: { id: number }) => key.id === made.id).revoked_at
    expect((await server.request("DELETE", `/api/v1/api-keys/${made.id}`, { key: admin })).status).toBe(204)
    const again = await server.request("GET", "/api/v1/api-keys?per_page=100", { key: admin })
    expect(again.body.data.find((key: { id: number }) => key.id === made.id).revoked_at).toBe(revokedAt)
    for (const id of ["999999", "abc", "0"]) {
      const reply = await server.request("DELETE", `/api/v1/api-keys/${id}`, { key: admin })
      expect(reply.status).toBe(404)
      expect(reply.body).toEqual({ message: "API key not found" })
    }
  })

  it("a key may revoke itself, and is then refused", async () => {
    const made = (await create(admin, { name: "self", abilities: ["keys:manage"] })).body.data
    expect((await server.request("DELETE", `/api/v1/api-keys/${made.id}`, { key: made.key })).status).toBe(204)
    expect((await server.request("GET", "/api/v1/api-keys", { key: made.key })).status).toBe(401)
  })

  it("never grants an ability the creating key lacks, nor `*` without `*`", async () => {
    const manager = (await create(admin, { name: "manager", abilities: ["keys:manage", "tags:read"] })).body.data.key
    const reply = await create(manager, { name: "wider", abilities: ["tags:read", "tags:write", "*"] })
    expect(reply.status).toBe(422)
    expect(reply.body).toEqual({
      message: INVALID,
      errors: {
        "abilities.1": ["The key may not grant what it does not have itself."],
        "abilities.2": ["The key may not grant what it does not have itself."]
      }
    })
    expect((await create(manager, { name: "narrower", abilities: ["tags:read"] })).status).toBe(201)
  })

  it("a key limited to projects grants only those, and by default its own", async () => {
    const limited = (await create(admin, { name: "limited", abilities: ["*"], project_ids: [projectA] })).body.data.key
    const everywhere = await create(limited, { name: "all projects", abilities: ["tags:read"], project_ids: null })
    expect(everywhere.status).toBe(422)
    expect(everywhere.body.errors).toEqual({ project_ids: ["The key may not grant what it does not have itself."] })
    const other = await create(limited, { name: "other project", abilities: ["tags:read"], project_ids: [projectA, projectB] })
    expect(other.status).toBe(422)
    expect(other.body.errors).toEqual({ "project_ids.1": ["The selected project_ids.1 is invalid."] })
    const inherited = await create(limited, { name: "inherits", abilities: ["tags:read"] })
    expect(inherited.status).toBe(201)
    expect(inherited.body.data.project_ids).toEqual([projectA])
    // What it could not have made, it neither sees nor revokes.
    const listed = await server.request("GET", "/api/v1/api-keys?per_page=100", { key: limited })
    const names = listed.body.data.map((key: { name: string }) => key.name)
    expect(names).toContain("inherits")
    expect(names).not.toContain("admin")
    const adminId = (await server.request("GET", "/api/v1/me", { key: admin })).body.data.key.id
    expect((await server.request("DELETE", `/api/v1/api-keys/${adminId}`, { key: limited })).status).toBe(404)
    expect((await server.request("GET", "/api/v1/me", { key: admin })).status).toBe(200)
  })

  it("an expiring key makes keys that expire no later; expiries are in the future", async () => {
    const expiring = (await create(admin, { name: "expiring", abilities: ["keys:manage"], expires_at: inDays(30) })).body.data
    const later = await create(expiring.key, { name: "later", abilities: ["keys:manage"], expires_at: inDays(60) })
    expect(later.status).toBe(422)
    expect(later.body.errors).toEqual({ expires_at: ["The key may not grant what it does not have itself."] })
    const never = await create(expiring.key, { name: "never", abilities: ["keys:manage"], expires_at: null })
    expect(never.status).toBe(422)
    const inherited = await create(expiring.key, { name: "inherits expiry", abilities: ["keys:manage"] })
    expect(inherited.status).toBe(201)
    expect(inherited.body.data.expires_at).toBe(expiring.expires_at)
    const past = await create(admin, { name: "past", abilities: ["tags:read"], expires_at: inDays(-1) })
    expect(past.status).toBe(422)
    expect(past.body.errors).toEqual({ expires_at: ["The expires at field must be a date in the future."] })
    // Not read as 2 March.
    const impossible = await create(admin, { name: "impossible", abilities: ["tags:read"], expires_at: `${new Date().getUTCFullYear() + 2}-02-30T00:00:00Z` })
    expect(impossible.status).toBe(422)
    expect(impossible.body.errors).toEqual({ expires_at: ["The expires at field must be a valid date."] })
  })

  it("validates the body: name, a non-empty list of known abilities, project ids, a date-time", async () => {
    const reply = await create(admin, { name: " ", abilities: [], project_ids: ["x"], expires_at: "tomorrow" })
    expect(reply.status).toBe(422)
    expect(Object.keys(reply.body.errors).sort()).toEqual(["abilities", "expires_at", "name", "project_ids.0"])
    const unknown = await create(admin, { name: "x", abilities: ["tags:delete"] })
    expect(unknown.body.errors["abilities.0"][0]).toContain(`Allowed: ${abilities.join(", ")}, *`)
  })

  it("an organization holds at most 1,000 active keys, exactly under concurrent creations; revoked and expired ones do not count", async () => {
    const org = (await server.createOrganization("Many keys")).id
    const manager = (await server.createKey(org, ["*"], { name: "manager" })).key
    // 989 more active keys (990 with the manager), and 30 revoked and 30 expired ones that do not count.
    if (server.sql === undefined) {
      for (let i = 0; i < 989; i++) await server.createKey(org, ["tags:read"], { name: `seed ${i}` })
      for (let i = 0; i < 30; i++) await server.revokeKey((await server.createKey(org, ["tags:read"], { name: `revoked ${i}` })).id)
      for (let i = 0; i < 30; i++) await server.createKey(org, ["tags:read"], { name: `expired ${i}`, expiresAt: new Date(Date.now() - 1000) })
    } else {
      const seed = (count: number, name: string, extra: string) =>
        server.sql!(`
          INSERT INTO api_keys (organization_id, name, key_hash, prefix, abilities, revoked_at, expires_at)
          SELECT ${org}, '${name}', encode(sha256(('${name}' || g || random())::bytea), 'hex'), 'bvm_seed', ARRAY['tags:read'], ${extra}
          FROM generate_series(1, ${count}) g`)
      await seed(989, "seed", "NULL, NULL")
      await seed(30, "revoked", "now(), NULL")
      await seed(30, "expired", "NULL, now() - interval '1 second'")
    }
    const full = {
      message: INVALID,
      errors: { api_keys: ["The organization already has 1000 active API keys, the most it may have; revoke one to make another."] }
    }
    // 25 at once for the last 10 places: exactly 10 are made.
    const replies = await Promise.all(Array.from({ length: 25 }, (_, i) => create(manager, { name: `race ${i}`, abilities: ["tags:read"] })))
    expect(replies.map((reply) => reply.status).sort()).toEqual([...Array(10).fill(201), ...Array(15).fill(422)])
    for (const reply of replies.filter((reply) => reply.status === 422)) expect(reply.body).toEqual(full)
    const listed = await server.request("GET", "/api/v1/api-keys?per_page=1", { key: manager })
    expect(listed.body.meta.total).toBe(1060)
    // A body that fails validation is told so first; the limit is checked on a valid one.
    expect((await create(manager, { name: " ", abilities: ["tags:read"] })).body.errors).toEqual({ name: ["The name field is required."] })
    // Revoking one makes room for one.
    const made = replies.find((reply) => reply.status === 201)!.body.data
    expect((await server.request("DELETE", `/api/v1/api-keys/${made.id}`, { key: manager })).status).toBe(204)
    expect((await create(manager, { name: "after revocation", abilities: ["tags:read"] })).status).toBe(201)
    expect((await create(manager, { name: "one too many", abilities: ["tags:read"] })).body).toEqual(full)
    // Another organization is not concerned.
    expect((await create(admin, { name: "elsewhere", abilities: ["tags:read"] })).status).toBe(201)
  }, 120_000)

  it("`*` includes keys:manage; without it, 403 naming the ability", async () => {
    const me = await server.request("GET", "/api/v1/me", { key: admin })
    expect(me.body.data.abilities).toContain("keys:manage")
    const reader = (await create(admin, { name: "reader", abilities: ["tags:read"] })).body.data.key
    const refused = await server.request("GET", "/api/v1/api-keys", { key: reader })
    expect(refused.status).toBe(403)
    expect(refused.body).toEqual({ message: "This action is unauthorized.", required_ability: "keys:manage" })
  })
})
