import { Effect } from "effect"
import * as ApiGroup from "../Http/ApiGroup.ts"
import { CurrentProject } from "../Http/ProjectContext.ts"
import { checkReferences, projectResourceHandlers } from "../Http/ProjectResourceHandlers.ts"
import { paginated } from "../Http/Responses.ts"
import { NotFound, ValidationError } from "../Domain/Errors.ts"
import { MonitorsRepo } from "../Monitors/Repo.ts"
import { TagsRepo } from "../Tags/Repo.ts"
import { PromptsRepo } from "./Repo.ts"
import { PromptsApi } from "./Api.ts"
import * as Area from "../Area.ts"
import * as PromptsMemory from "./RepoMemory.ts"
import * as PromptsSql from "./Repo.ts"

export const PromptsLive = ApiGroup.group(PromptsApi, (handlers) =>
  Effect.gen(function*() {
    const prompts = yield* PromptsRepo
    const monitors = yield* MonitorsRepo
    const tags = yield* TagsRepo
    const resource = projectResourceHandlers(prompts, "Prompt")
    const tag = projectResourceHandlers(tags, "Tag")

    /** The monitor and tags a body or query names must be the project's own (422 `monitor_id`, `tags.<index>`). */
    const checkRefs = (refs: { readonly monitor_id?: number | undefined; readonly tags?: ReadonlyArray<number> | undefined }) =>
      Effect.flatMap(CurrentProject, (project) =>
        checkReferences([
          { field: "monitor_id", ids: refs.monitor_id, existing: (ids) => monitors.existing(project.id, ids) },
          { field: "tags", ids: refs.tags, existing: (ids) => tags.existing(project.id, ids) }
        ]))

    /** The monitor of the body deleted since `checkRefs` found it: invalid, as it would be now. */
    const monitorGone = <A, E, R>(write: Effect.Effect<A, E, R>) =>
      Effect.catchIf(
        write,
        (error) => error instanceof NotFound && error.resource === "Monitor",
        () => ValidationError.field("monitor_id", "The selected monitor id is invalid.")
      )

    /** The prompt and the tag of the path, each in the active project. */
    const pathPair = (path: { readonly prompt: number; readonly tag: number }) => Effect.all([resource.find(path.prompt), tag.find(path.tag)])

    return handlers
      .handle("list", ({ urlParams }) =>
        Effect.gen(function*() {
          yield* checkRefs({ monitor_id: urlParams.monitor_id })
          const project = yield* CurrentProject
          return yield* paginated(urlParams, (window) => prompts.list(project.id, window, { monitor_id: urlParams.monitor_id }))
        }))
      .handle("get", ({ path }) => resource.get(path.prompt))
      .handle("delete", ({ path }) => resource.delete(path.prompt))
      .handle("create", ({ payload }) =>
        Effect.zipRight(
          checkRefs(payload),
          resource.create({ monitor_id: payload.monitor_id, text: payload.text, tag_ids: payload.tags }).pipe(monitorGone)
        ))
      .handle("update", ({ path, payload }) =>
        Effect.zipRight(
          checkRefs(payload),
          resource.update(path.prompt, { monitor_id: payload.monitor_id, text: payload.text, tag_ids: payload.tags }).pipe(monitorGone)
        ))
      .handle("attachTag", ({ path }) =>
        resource.data(Effect.flatMap(pathPair(path), ([prompt, tag]) => prompts.attachTag(prompt.id, tag.id))))
      .handle("detachTag", ({ path }) =>
        resource.data(Effect.flatMap(pathPair(path), ([prompt, tag]) => prompts.detachTag(prompt.id, tag.id))))
  }))

/** The project's prompts and their tags. */
export const PromptsArea = Area.make({
  groups: [PromptsApi],
  handlers: PromptsLive,
  repositories: [Area.repository(PromptsRepo, { sql: PromptsSql.layerSql, memory: PromptsMemory.layerMemory })],
  abilities: ["prompts:read", "prompts:write"]
})
