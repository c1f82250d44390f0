import { Effect, Layer, Option } from "effect"
import { changesOf, isEmpty } from "../Database/Changes.ts"
import { NotFound } from "../Domain/Errors.ts"
import type { Project } from "../Domain/Project.ts"
import { seededTagNames } from "../Domain/Project.ts"
import { defaultTagColor } from "../Domain/Tag.ts"
import { byId, MemoryStore, pageOf } from "../Memory/Store.ts"
import { type ProjectScope, ProjectsRepo } from "./Repo.ts"

export const layerMemory = Layer.effect(
  ProjectsRepo,
  Effect.map(MemoryStore, (db) => {
    const inScope = (scope: ProjectScope) => (project: Project) =>
      project.organization_id === scope.organizationId && (scope.projectIds === null || scope.projectIds.includes(project.id))
    const scoped = (scope: ProjectScope) => byId(db.table("projects").values()).filter(inScope(scope))
    return ProjectsRepo.of({
      list: (scope, window) => Effect.sync(() => pageOf(scoped(scope), window)),
      listAll: (scope) => Effect.sync(() => scoped(scope)),
      find: (scope, id) => Effect.sync(() => Option.fromNullable(scoped(scope).find((project) => project.id === id))),
      findMany: (ids) => Effect.sync(() => ids.flatMap((id) => db.table("projects").get(id) ?? [])),
      create: (organizationId, input) =>
        Effect.sync(() => {
          const now = db.now()
          const project: Project = {
            id: db.nextId("projects"),
            organization_id: organizationId,
            name: input.name,
            domain: input.domain,
            brand_id: null,
            created_at: now,
            updated_at: now
          }
          db.table("projects").set(project.id, project)
          for (const name of seededTagNames) {
            const id = db.nextId("tags")
            db.table("tags").set(id, { id, project_id: project.id, name, color: defaultTagColor, created_at: now, updated_at: now })
          }
          return project
        }),
      update: (id, patch) =>
        Effect.suspend(() => {
          const current = db.table("projects").get(id)
          if (current === undefined) return Effect.fail(new NotFound({ resource: "Project" }))
          if (typeof patch.brand_id === "number" && db.table("brands").get(patch.brand_id)?.project_id !== id) {
            return Effect.fail(new NotFound({ resource: "Brand" }))
          }
          const changes = changesOf(patch)
          if (isEmpty(changes)) return Effect.succeed(current)
          const updated: Project = { ...current, ...changes, updated_at: db.now() }
          db.table("projects").set(id, updated)
          return Effect.succeed(updated)
        }),
      delete: (id) => Effect.sync(() => db.deleteProject(id)),
      hasBrand: (projectId, brandId) => Effect.sync(() => db.table("brands").get(brandId)?.project_id === projectId)
    })
  })
)
