import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import * as ProjectTable from "../../src/Memory/ProjectTable.ts"
import { MemoryTables } from "../../src/Memory/Store.ts"

interface NoteRow {
  readonly id: number
  readonly project_id: number
  readonly text: string
  readonly created_at: Date
  readonly updated_at: Date
}

/** Two projects of one organization, made as the in-memory projects repository makes them. */
const twoProjects = (db: MemoryTables) => {
  const now = db.now()
  const organization = db.nextId("organizations")
  db.table("organizations").set(organization, { id: organization, name: "Acme", created_at: now, updated_at: now })
  return [1, 2].map(() => {
    const id = db.nextId("projects")
    db.table("projects").set(id, { id, organization_id: organization, name: `P${id}`, domain: null, brand_id: null, created_at: now, updated_at: now })
    return id
  })
}

describe("the in-memory store", () => {
  it.effect("keeps an area's own table in its registry, with ids, 404s and the project's cascade, and no line of its own", () =>
    Effect.gen(function*() {
      const db = new MemoryTables()
      const [doomed, kept] = twoProjects(db)
      const notes = ProjectTable.make<NoteRow, { readonly text: string }>(db, "notes", "Note", {})
      const first = yield* notes.create(doomed!, { text: "a" })
      const second = yield* notes.create(kept!, { text: "b" })
      expect([first.id, second.id]).toEqual([1, 2])
      expect(db.table<NoteRow>("notes").size).toBe(2)
      expect(yield* notes.list(kept!, { offset: 0, limit: 10 })).toEqual({ rows: [second], total: 1 })
      expect((yield* notes.get(999).pipe(Effect.flip))).toMatchObject({ _tag: "NotFound", resource: "Note" })

      db.deleteProject(doomed!)
      expect([...db.table<NoteRow>("notes").values()]).toEqual([second])
      yield* notes.delete(second.id)
      expect(db.table<NoteRow>("notes").size).toBe(0)
    }))

  it("names the data model's tables once: the same table whoever asks, and join tables as sets", () => {
    const db = new MemoryTables()
    expect(db.table("tags")).toBe(db.table("tags"))
    expect(db.table("prompt_tags")).toBeInstanceOf(Set)
    expect(db.table("brand_segments")).toBeInstanceOf(Set)
    expect(db.table("collector_workers")).toBeInstanceOf(Map)
  })
})
