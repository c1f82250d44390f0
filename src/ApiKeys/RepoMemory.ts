import { Effect, Layer, Option } from "effect"
import { isUsable, isUseDue, MAX_ACTIVE_KEYS, TooManyKeys } from "../Domain/ApiKey.ts"
import { NotFound } from "../Domain/Errors.ts"
import { type DataModel, MemoryStore } from "../Memory/Store.ts"
import { ApiKeysRepo } from "./Repo.ts"

export const layerMemory = Layer.effect(
  ApiKeysRepo,
  Effect.map(MemoryStore, (db) => {
    const view = ({ key_hash: _, ...key }: { key_hash: string } & Parameters<DataModel["api_keys"]["set"]>[1]) => key
    const touch = (id: number, at: Date) => {
      const key = db.table("api_keys").get(id)
      if (key && isUseDue(key, at)) {
        db.table("api_keys").set(id, { ...key, last_used_at: at })
      }
    }
    return ApiKeysRepo.of({
      authenticate: (hash, projectId, at) =>
        Effect.sync(() => {
          const stored = [...db.table("api_keys").values()].find((key) => key.key_hash === hash)
          if (stored === undefined) return Option.none()
          if (isUsable(stored, at)) touch(stored.id, at)
          const project = Option.flatMap(projectId, (id) =>
            Option.fromNullable(db.table("projects").get(id)).pipe(
              Option.filter((project) =>
                project.organization_id === stored.organization_id && (stored.project_ids === null || stored.project_ids.includes(id))
              )
            ))
          return Option.some({ key: view(stored), project })
        }),
      create: (key) =>
        Effect.suspend((): Effect.Effect<ReturnType<typeof view>, NotFound | TooManyKeys> => {
          if (!db.table("organizations").has(key.organization_id)) return Effect.fail(new NotFound({ resource: "Organization" }))
          const now = db.now()
          const active = [...db.table("api_keys").values()].filter((stored) => stored.organization_id === key.organization_id && isUsable(stored, now))
          if (active.length >= MAX_ACTIVE_KEYS) return Effect.fail(new TooManyKeys({ organizationId: key.organization_id }))
          const row = {
            id: db.nextId("api_keys"),
            ...key,
            revoked_at: null,
            last_used_at: null,
            created_at: db.now()
          }
          db.table("api_keys").set(row.id, row)
          return Effect.succeed(view(row))
        }),
      findByHash: (hash) =>
        Effect.sync(() => Option.fromNullable([...db.table("api_keys").values()].find((key) => key.key_hash === hash)).pipe(Option.map(view))),
      touch: (id, at) => Effect.sync(() => touch(id, at)),
      listByOrganization: (organizationId) =>
        Effect.sync(() =>
          [...db.table("api_keys").values()].filter((key) => key.organization_id === organizationId).sort((a, b) => a.id - b.id).map(view)
        ),
      revoke: (id) =>
        Effect.sync(() => {
          const key = db.table("api_keys").get(id)
          if (!key) return false
          db.table("api_keys").set(id, { ...key, revoked_at: key.revoked_at ?? db.now() })
          return true
        })
    })
  })
)
