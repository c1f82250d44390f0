import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { Api } from "../Api.ts"
import { orNotFound, ValidationError } from "../Domain/Errors.ts"
import { defaultTagColor } from "../Domain/Tag.ts"
import { CurrentProject } from "../Http/ProjectContext.ts"
import { paginated } from "../Http/Responses.ts"
import { TagsRepo } from "./Repo.ts"

const nameTaken = () => ValidationError.field("name", "The name has already been taken.")

export const TagsLive = HttpApiBuilder.group(Api, "tags", (handlers) =>
  Effect.gen(function*() {
    const tags = yield* TagsRepo
    const find = (id: number) =>
      CurrentProject.pipe(
        Effect.flatMap((project) => tags.find(project.id, id)),
        orNotFound("Tag")
      )
    return handlers
      .handle("list", ({ urlParams }) =>
        Effect.flatMap(CurrentProject, (project) => paginated(urlParams, (window) => tags.list(project.id, window))))
      .handle("create", ({ payload }) =>
        Effect.gen(function*() {
          const project = yield* CurrentProject
          const tag = yield* tags.create(project.id, { name: payload.name, color: payload.color ?? defaultTagColor })
          return { data: tag }
        }).pipe(Effect.catchTag("TagNameTaken", () => Effect.fail(nameTaken()))))
      .handle("get", ({ path }) => Effect.map(find(path.tag), (data) => ({ data })))
      .handle("update", ({ path, payload }) =>
        Effect.gen(function*() {
          const tag = yield* find(path.tag)
          return { data: yield* tags.update(tag.id, payload) }
        }).pipe(Effect.catchTag("TagNameTaken", () => Effect.fail(nameTaken()))))
      .handle("delete", ({ path }) => Effect.flatMap(find(path.tag), (tag) => tags.delete(tag.id)))
  }))
