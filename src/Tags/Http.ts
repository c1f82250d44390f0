import { Effect } from "effect"
import * as ApiGroup from "../Http/ApiGroup.ts"
import { ValidationError } from "../Domain/Errors.ts"
import { defaultTagColor } from "../Domain/Tag.ts"
import { projectResourceHandlers } from "../Http/ProjectResourceHandlers.ts"
import { TagsRepo } from "./Repo.ts"
import { TagsApi } from "./Api.ts"
import * as Area from "../Area.ts"
import * as TagsMemory from "./RepoMemory.ts"
import * as TagsSql from "./Repo.ts"

const nameTaken = () => Effect.fail(ValidationError.field("name", "The name has already been taken."))

export const TagsLive = ApiGroup.group(TagsApi, (handlers) =>
  Effect.gen(function*() {
    const tags = yield* TagsRepo
    const resource = projectResourceHandlers(tags, "Tag")
    return handlers
      .handle("list", resource.list)
      .handle("get", ({ path }) => resource.get(path.tag))
      .handle("delete", ({ path }) => resource.delete(path.tag))
      .handle("create", ({ payload }) =>
        resource.create({ name: payload.name, color: payload.color ?? defaultTagColor }).pipe(Effect.catchTag("TagNameTaken", nameTaken)))
      .handle("update", ({ path, payload }) => resource.update(path.tag, payload).pipe(Effect.catchTag("TagNameTaken", nameTaken)))
  }))

/** The project's tags. */
export const TagsArea = Area.make({
  groups: [TagsApi],
  handlers: TagsLive,
  repositories: [Area.repository(TagsRepo, { sql: TagsSql.layerSql, memory: TagsMemory.layerMemory })],
  abilities: ["tags:read", "tags:write"]
})
