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
          db.organizations.set(organization.id, organization)
          return organization
        }),
      list: Effect.sync(() => [...db.organizations.values()].sort((a, b) => a.id - b.id)),
      findById: (id) => Effect.sync(() => Option.fromNullable(db.organizations.get(id))),
      findMany: (ids) => Effect.sync(() => ids.flatMap((id) => db.organizations.get(id) ?? [])),
      rename: (id, name) =>
        Effect.sync(() => {
          const updated = { ...db.organizations.get(id)!, name, updated_at: db.now() }
          db.organizations.set(id, updated)
          return updated
        })
    }))
)
