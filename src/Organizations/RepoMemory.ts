import { Effect, Layer, Option } from "effect"
import { MemoryStore } from "../Memory/Store.ts"
import { OrganizationsRepo } from "./Repo.ts"

export const layerMemory = Layer.effect(
  OrganizationsRepo,
  Effect.map(MemoryStore, (db) =>
    OrganizationsRepo.of({
      create: (name) =>
        Effect.sync(() => {
          const now = db.now()
          const organization = { id: db.nextId("organizations"), name, created_at: now, updated_at: now }
          db.table("organizations").set(organization.id, organization)
          return organization
        }),
      list: Effect.sync(() => [...db.table("organizations").values()].sort((a, b) => a.id - b.id)),
      findById: (id) => Effect.sync(() => Option.fromNullable(db.table("organizations").get(id))),
      findMany: (ids) => Effect.sync(() => ids.flatMap((id) => db.table("organizations").get(id) ?? [])),
      rename: (id, name) =>
        Effect.sync(() => {
          const updated = { ...db.table("organizations").get(id)!, name, updated_at: db.now() }
          db.table("organizations").set(id, updated)
          return updated
        })
    }))
)
