import { expect, layer } from "@effect/vitest"
import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option, Tracer } from "effect"
import { ApiKeysRepo } from "../../src/ApiKeys/Repo.ts"
import { BrandsRepo } from "../../src/Brands/Repo.ts"
import { NotFound } from "../../src/Domain/Errors.ts"
import { MonitorsRepo } from "../../src/Monitors/Repo.ts"
import { OrganizationsRepo } from "../../src/Organizations/Repo.ts"
import { ProjectsRepo } from "../../src/Projects/Repo.ts"
import { PromptsRepo } from "../../src/Prompts/Repo.ts"
import * as Repositories from "../../src/Repositories.ts"
import { SegmentsRepo } from "../../src/Segments/Repo.ts"
import { TagsRepo } from "../../src/Tags/Repo.ts"
import { migratedSql } from "../support/Databases.ts"
import { sqlBackend } from "../support/TestServer.ts"

/**
 * One contract, two implementations: the in-memory repositories are the reference the SQL ones are
 * held to, and each case runs on both.
 */
const implementations = [
  ["memory", Repositories.layerMemory],
  // With the database's SqlClient too, for what a case seeds by SQL.
  [sqlBackend, Repositories.layerSql.pipe(Layer.provideMerge(migratedSql)) as Layer.Layer<Layer.Layer.Success<typeof Repositories.layerSql>, unknown>]
] as const

const window = (offset: number, limit: number) => ({ offset, limit })

/** An organization with one project, created through the repositories. */
const setup = Effect.gen(function*() {
  const organizations = yield* OrganizationsRepo
  const projects = yield* ProjectsRepo
  const organization = yield* organizations.create("Acme")
  const project = yield* projects.create(organization.id, { name: "Site", domain: null })
  return { organization, project, scope: { organizationId: organization.id, projectIds: null } }
})

for (const [name, implementation] of implementations) {
  layer(implementation, { timeout: 60_000 })(`repositories (${name})`, (it) => {
    it.effect("a new project has the three seeded tags, in that order", () =>
      Effect.gen(function*() {
        const { project } = yield* setup
        const tags = yield* (yield* TagsRepo).list(project.id, window(0, 10))
        expect(tags.total).toBe(3)
        expect(tags.rows.map((tag) => tag.name)).toEqual(["branded", "non-branded", "review"])
      }))

    it.effect("lists a scope by id with an exact total, and narrows to allowed projects", () =>
      Effect.gen(function*() {
        const projects = yield* ProjectsRepo
        const { organization, project, scope } = yield* setup
        const second = yield* projects.create(organization.id, { name: "Second", domain: "b.example" })
        const third = yield* projects.create(organization.id, { name: "Third", domain: null })
        const page = yield* projects.list(scope, window(1, 1))
        expect(page).toEqual({ rows: [second], total: 3 })
        const past = yield* projects.list(scope, window(10, 5))
        expect(past).toEqual({ rows: [], total: 3 })
        const narrowed = yield* projects.listAll({ organizationId: organization.id, projectIds: [project.id, third.id] })
        expect(narrowed.map((p) => p.id)).toEqual([project.id, third.id])
        const elsewhere = yield* projects.find({ organizationId: organization.id + 1000, projectIds: null }, project.id)
        expect(Option.isNone(elsewhere)).toBe(true)
      }))

    it.effect("an empty patch changes nothing, not even updated_at", () =>
      Effect.gen(function*() {
        const projects = yield* ProjectsRepo
        const { project } = yield* setup
        expect(yield* projects.update(project.id, {})).toEqual(project)
        const renamed = yield* projects.update(project.id, { name: "Renamed", domain: "x.example" })
        expect(renamed).toMatchObject({ name: "Renamed", domain: "x.example", brand_id: null })
        expect(renamed.updated_at.getTime()).toBeGreaterThanOrEqual(project.updated_at.getTime())
      }))

    it.effect("tag names are unique per project whatever their case", () =>
      Effect.gen(function*() {
        const tags = yield* TagsRepo
        const { organization, project } = yield* setup
        const taken = yield* tags.create(project.id, { name: "BRANDED", color: "#000000" }).pipe(Effect.flip)
        expect(taken._tag).toBe("TagNameTaken")
        const accent = yield* tags.create(project.id, { name: "Ärzte", color: "#000000" })
        expect((yield* tags.create(project.id, { name: "ärzte", color: "#000000" }).pipe(Effect.flip))._tag).toBe("TagNameTaken")
        expect((yield* tags.update(accent.id, { name: "Review" }).pipe(Effect.flip))._tag).toBe("TagNameTaken")
        expect((yield* tags.update(accent.id, { name: "ÄRZTE" })).name).toBe("ÄRZTE")
        const other = yield* (yield* ProjectsRepo).create(organization.id, { name: "Other", domain: null })
        expect((yield* tags.create(other.id, { name: "ärzte", color: "#000000" })).name).toBe("ärzte")
        expect(yield* tags.existing(project.id, [accent.id, 999_999])).toEqual([accent.id])
      }))

    it.effect("prompts keep their tags by id, replace them as a set, attach and detach idempotently", () =>
      Effect.gen(function*() {
        const prompts = yield* PromptsRepo
        const tags = yield* TagsRepo
        const { project } = yield* setup
        const monitor = yield* (yield* MonitorsRepo).create(project.id, {
          name: "US",
          country: "US",
          platforms: ["chatgpt"],
          schedule: "daily",
          active: true
        })
        const [branded, nonBranded, review] = (yield* tags.list(project.id, window(0, 10))).rows
        const prompt = yield* prompts.create(project.id, { monitor_id: monitor.id, text: "Q?", tag_ids: [review!.id, branded!.id] })
        expect(prompt.tags.map((tag) => tag.name)).toEqual(["branded", "review"])
        const replaced = yield* prompts.update(prompt.id, { tag_ids: [nonBranded!.id] })
        expect(replaced.tags.map((tag) => tag.name)).toEqual(["non-branded"])
        const attached = yield* prompts.attachTag(prompt.id, branded!.id)
        expect(yield* prompts.attachTag(prompt.id, branded!.id)).toEqual(attached)
        expect(attached.tags.map((tag) => tag.name)).toEqual(["branded", "non-branded"])
        const detached = yield* prompts.detachTag(prompt.id, review!.id)
        expect(detached.tags).toEqual(attached.tags)
        yield* tags.delete(branded!.id)
        const after = yield* prompts.find(project.id, prompt.id)
        expect(Option.getOrThrow(after).tags.map((tag) => tag.name)).toEqual(["non-branded"])
        const filtered = yield* prompts.list(project.id, window(0, 10), { monitor_id: monitor.id + 1000 })
        expect(filtered).toEqual({ rows: [], total: 0 })
      }))

    it.effect("deleting a project removes its monitors, prompts and tags, and nothing else", () =>
      Effect.gen(function*() {
        const projects = yield* ProjectsRepo
        const monitors = yield* MonitorsRepo
        const prompts = yield* PromptsRepo
        const tags = yield* TagsRepo
        const { organization, project } = yield* setup
        const kept = yield* projects.create(organization.id, { name: "Kept", domain: null })
        for (const target of [project, kept]) {
          const monitor = yield* monitors.create(target.id, { name: "M", country: "FR", platforms: ["grok"], schedule: "weekly", active: false })
          yield* prompts.create(target.id, { monitor_id: monitor.id, text: "Q", tag_ids: [] })
        }
        yield* projects.delete(project.id)
        expect((yield* monitors.list(project.id, window(0, 10))).total).toBe(0)
        expect((yield* prompts.list(project.id, window(0, 10))).total).toBe(0)
        expect((yield* tags.list(project.id, window(0, 10))).total).toBe(0)
        expect((yield* monitors.list(kept.id, window(0, 10))).total).toBe(1)
        expect((yield* prompts.list(kept.id, window(0, 10))).total).toBe(1)
        expect((yield* tags.list(kept.id, window(0, 10))).total).toBe(3)
      }))

    it.effect("keys: found by hash, use recorded at most once a minute, revocation keeps its first time", () =>
      Effect.gen(function*() {
        const keys = yield* ApiKeysRepo
        const { organization } = yield* setup
        const key = yield* keys.create({
          organization_id: organization.id,
          name: "ci",
          key_hash: "a".repeat(64),
          prefix: "bvm_abcd",
          abilities: ["tags:read"],
          project_ids: [1, 2],
          expires_at: null
        })
        expect(key).toMatchObject({ abilities: ["tags:read"], project_ids: [1, 2], revoked_at: null, last_used_at: null })
        expect(Option.getOrThrow(yield* keys.findByHash("a".repeat(64))).id).toBe(key.id)
        expect(Option.isNone(yield* keys.findByHash("b".repeat(64)))).toBe(true)
        const first = new Date("2026-01-01T00:00:00.000Z")
        yield* keys.touch(key.id, first)
        yield* keys.touch(key.id, new Date(first.getTime() + 30_000))
        expect(Option.getOrThrow(yield* keys.findByHash("a".repeat(64))).last_used_at).toEqual(first)
        const later = new Date(first.getTime() + 61_000)
        yield* keys.touch(key.id, later)
        expect(Option.getOrThrow(yield* keys.findByHash("a".repeat(64))).last_used_at).toEqual(later)
        expect(yield* keys.revoke(key.id)).toBe(true)
        const revokedAt = Option.getOrThrow(yield* keys.findByHash("a".repeat(64))).revoked_at
        expect(revokedAt).not.toBeNull()
        yield* keys.revoke(key.id)
        expect(Option.getOrThrow(yield* keys.findByHash("a".repeat(64))).revoked_at).toEqual(revokedAt)
        expect(yield* keys.revoke(999_999)).toBe(false)
      }))

    it.effect("segments are listed by id per project, found only in their project, and renamed", () =>
      Effect.gen(function*() {
        const segments = yield* SegmentsRepo
        const { organization, project } = yield* setup
        const other = yield* (yield* ProjectsRepo).create(organization.id, { name: "Other", domain: null })
        const a = yield* segments.create(project.id, { name: "A" })
        const elsewhere = yield* segments.create(other.id, { name: "Elsewhere" })
        const b = yield* segments.create(project.id, { name: "B" })
        expect(a).toMatchObject({ project_id: project.id, name: "A" })
        expect(yield* segments.list(project.id, window(0, 10))).toEqual({ rows: [a, b], total: 2 })
        expect(yield* segments.list(project.id, window(1, 1))).toEqual({ rows: [b], total: 2 })
        expect(Option.isNone(yield* segments.find(project.id, elsewhere.id))).toBe(true)
        expect(yield* segments.existing(project.id, [b.id, elsewhere.id, 999_999])).toEqual([b.id])
        expect(yield* segments.update(a.id, {})).toEqual(a)
        const renamed = yield* segments.update(a.id, { name: "A2" })
        expect(renamed).toMatchObject({ id: a.id, project_id: project.id, name: "A2", created_at: a.created_at })
        expect(Option.getOrThrow(yield* segments.find(project.id, a.id))).toEqual(renamed)
      }))

    it.effect("brands keep their segment ids ascending, replace them as a set, attach and detach idempotently", () =>
      Effect.gen(function*() {
        const brands = yield* BrandsRepo
        const segments = yield* SegmentsRepo
        const { project } = yield* setup
        const [one, two, three] = [
          yield* segments.create(project.id, { name: "1" }),
          yield* segments.create(project.id, { name: "2" }),
          yield* segments.create(project.id, { name: "3" })
        ]
        const brand = yield* brands.create(project.id, {
          name: "Acme",
          aliases: ["Acme Inc."],
          domains: ["acme.com"],
          classification: "competitor",
          segment_ids: [three!.id, one!.id, three!.id]
        })
        expect(brand).toMatchObject({
          project_id: project.id,
          name: "Acme",
          aliases: ["Acme Inc."],
          domains: ["acme.com"],
          classification: "competitor",
          segment_ids: [one!.id, three!.id]
        })
        expect(Option.getOrThrow(yield* brands.find(project.id, brand.id))).toEqual(brand)
        expect(yield* brands.update(brand.id, {})).toEqual(brand)
        const replaced = yield* brands.update(brand.id, { segment_ids: [two!.id], classification: "ignored", aliases: [] })
        expect(replaced).toMatchObject({ segment_ids: [two!.id], classification: "ignored", aliases: [], domains: ["acme.com"] })
        const attached = yield* brands.attachSegment(brand.id, one!.id)
        expect(attached.segment_ids).toEqual([one!.id, two!.id])
        expect(yield* brands.attachSegment(brand.id, one!.id)).toEqual(attached)
        const detached = yield* brands.detachSegment(brand.id, two!.id)
        expect(detached.segment_ids).toEqual([one!.id])
        expect(yield* brands.detachSegment(brand.id, two!.id)).toEqual(detached)
        const second = yield* brands.create(project.id, { name: "Beta", aliases: [], domains: [], classification: "other", segment_ids: [] })
        expect(yield* brands.list(project.id, window(0, 10))).toEqual({ rows: [detached, second], total: 2 })
        expect(yield* brands.list(project.id, window(1, 5))).toEqual({ rows: [second], total: 2 })
        expect(Option.isNone(yield* brands.find(project.id + 1000, brand.id))).toBe(true)
        expect(yield* brands.findMany(project.id, [second.id, brand.id, 999_999])).toEqual([detached, second])
        expect(yield* brands.findMany(project.id + 1000, [brand.id])).toEqual([])
      }))

    it.effect("deleting a segment only detaches it; deleting a brand clears its project's brand_id; a project takes both along", () =>
      Effect.gen(function*() {
        const brands = yield* BrandsRepo
        const segments = yield* SegmentsRepo
        const projects = yield* ProjectsRepo
        const { organization, project } = yield* setup
        const doomed = yield* segments.create(project.id, { name: "Doomed" })
        const kept = yield* segments.create(project.id, { name: "Kept" })
        const own = yield* brands.create(project.id, {
          name: "Own",
          aliases: [],
          domains: [],
          classification: "other",
          segment_ids: [doomed.id, kept.id]
        })
        yield* segments.delete(doomed.id)
        expect(Option.getOrThrow(yield* brands.find(project.id, own.id))).toEqual({ ...own, segment_ids: [kept.id] })
        expect(yield* projects.hasBrand(project.id, own.id)).toBe(true)
        expect((yield* projects.update(project.id, { brand_id: own.id })).brand_id).toBe(own.id)
        yield* brands.delete(own.id)
        expect(Option.isNone(yield* brands.find(project.id, own.id))).toBe(true)
        expect(yield* projects.hasBrand(project.id, own.id)).toBe(false)
        const scope = { organizationId: organization.id, projectIds: null }
        expect(Option.getOrThrow(yield* projects.find(scope, project.id)).brand_id).toBeNull()
        expect(yield* segments.list(project.id, window(0, 10))).toEqual({ rows: [kept], total: 1 })

        yield* brands.create(project.id, { name: "Left", aliases: [], domains: [], classification: "competitor", segment_ids: [kept.id] })
        yield* projects.delete(project.id)
        expect((yield* brands.list(project.id, window(0, 10))).total).toBe(0)
        expect((yield* segments.list(project.id, window(0, 10))).total).toBe(0)
      }))

    it.effect("a project's brands stop at 1,000 (BrandLimitReached), and a creation in a deleted project is its NotFound", () =>
      Effect.gen(function*() {
        const brands = yield* BrandsRepo
        const { organization, project } = yield* setup
        const brand = (name: string) => ({ name, aliases: [], domains: [], classification: "competitor" as const, segment_ids: [] })
        // 999 brands: one statement on SQL (the layer's SqlClient), the repository in memory (instant there).
        const sql = yield* Effect.serviceOption(SqlClient.SqlClient)
        if (Option.isSome(sql)) {
          yield* sql.value.unsafe(`INSERT INTO brands (project_id, name) SELECT ${project.id}, 'B' || g FROM generate_series(1, 999) g`).pipe(
            Effect.orDie
          )
        } else {
          for (let i = 0; i < 999; i++) yield* brands.create(project.id, brand(`B${i}`))
        }
        const last = yield* brands.create(project.id, brand("Last"))
        expect((yield* brands.create(project.id, brand("Over")).pipe(Effect.flip))._tag).toBe("BrandLimitReached")
        expect((yield* brands.list(project.id, window(0, 1))).total).toBe(1000)
        yield* brands.delete(last.id)
        yield* brands.create(project.id, brand("Again"))

        const gone = yield* (yield* ProjectsRepo).create(organization.id, { name: "Gone", domain: null })
        yield* (yield* ProjectsRepo).delete(gone.id)
        expect(yield* brands.create(gone.id, brand("Orphan")).pipe(Effect.flip)).toEqual(new NotFound({ resource: "Project" }))
        expect(yield* (yield* TagsRepo).create(gone.id, { name: "Orphan", color: "#000000" }).pipe(Effect.flip)).toEqual(
          new NotFound({ resource: "Project" })
        )
      }))

    it.effect("a page of brands loads the segment ids of every brand on it in one query", () =>
      Effect.gen(function*() {
        const brands = yield* BrandsRepo
        const segments = yield* SegmentsRepo
        const { project } = yield* setup
        const segmentIds: Array<number> = []
        for (let i = 0; i < 3; i++) segmentIds.push((yield* segments.create(project.id, { name: `S${i}` })).id)
        for (let i = 0; i < 25; i++) {
          yield* brands.create(project.id, {
            name: `B${i}`,
            aliases: [],
            domains: [],
            classification: "competitor",
            segment_ids: segmentIds.slice(0, i % 4)
          })
        }
        const { statements, value } = yield* countingStatements(brands.list(project.id, window(0, 25)))
        expect(value.rows.map((brand) => brand.segment_ids)).toEqual(Array.from({ length: 25 }, (_, i) => segmentIds.slice(0, i % 4)))
        // SQL: the page with its segment ids and the total in one statement, whatever the page size (the memory store sends none).
        expect(statements).toBe(name === "memory" ? 0 : 1)
      }))
  })
}

/** Runs an effect and counts the SQL statements it sends (each is an `sql.execute` span). */
const countingStatements = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    let statements = 0
    const base = yield* Effect.tracer
    const tracer = Tracer.make({
      span: (name, ...rest) => {
        if (name === "sql.execute") statements++
        return base.span(name, ...rest)
      },
      context: base.context
    })
    const value = yield* Effect.withTracer(effect, tracer)
    return { value, statements }
  })

layer(Repositories.layerSql.pipe(Layer.provide(migratedSql)), { timeout: 60_000 })(`prompt lists (${sqlBackend})`, (it) => {
  it.effect("come whole, with their tags and the total, in one statement", () =>
    Effect.gen(function*() {
      const prompts = yield* PromptsRepo
      const { project } = yield* setup
      const monitor = yield* (yield* MonitorsRepo).create(project.id, {
        name: "US",
        country: "US",
        platforms: ["chatgpt"],
        schedule: "daily",
        active: true
      })
      const tagIds = (yield* (yield* TagsRepo).list(project.id, window(0, 10))).rows.map((tag) => tag.id)
      for (let i = 0; i < 25; i++) {
        yield* prompts.create(project.id, { monitor_id: monitor.id, text: `Q${i}`, tag_ids: tagIds.slice(0, 1 + (i % 3)) })
      }
      const { statements, value } = yield* countingStatements(prompts.list(project.id, window(0, 25)))
      expect(value.rows).toHaveLength(25)
      expect(value.rows.map((prompt) => prompt.tags.length)).toEqual(Array.from({ length: 25 }, (_, i) => 1 + (i % 3)))
      // The page, its tags and the total in one statement, whatever the page size; a page past the end asks for the count alone.
      expect(statements).toBe(1)
      const after = yield* countingStatements(prompts.list(project.id, window(100, 25)))
      expect(after.value).toEqual({ rows: [], total: 25 })
      expect(after.statements).toBe(2)
    }))
})
