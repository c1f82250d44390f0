import { HttpApiBuilder } from "@effect/platform"
import { Effect, Option } from "effect"
import { Api } from "../Api.ts"
import { type FieldErrors, orNotFound, ValidationError } from "../Domain/Errors.ts"
import { CurrentProject } from "../Http/ProjectContext.ts"
import { paginated } from "../Http/Responses.ts"
import { MonitorsRepo } from "../Monitors/Repo.ts"
import { TagsRepo } from "../Tags/Repo.ts"
import { PromptsRepo } from "./Repo.ts"

export const PromptsLive = HttpApiBuilder.group(Api, "prompts", (handlers) =>
  Effect.gen(function*() {
    const prompts = yield* PromptsRepo
    const monitors = yield* MonitorsRepo
    const tags = yield* TagsRepo

    /**
     * The references of a body must be the project's own: a foreign monitor or tag is a 422 naming the
     * field, checked before the path resource (validation comes first in the order of checks).
     */
    const checkReferences = (projectId: number, refs: { readonly monitor_id?: number | undefined; readonly tags?: ReadonlyArray<number> | undefined }) =>
      Effect.gen(function*() {
        const errors: Record<string, Array<string>> = {}
        if (refs.monitor_id !== undefined && Option.isNone(yield* monitors.find(projectId, refs.monitor_id))) {
          errors.monitor_id = ["The selected monitor id is invalid."]
        }
        if (refs.tags !== undefined && refs.tags.length > 0) {
          const known = new Set(yield* tags.existing(projectId, refs.tags))
          refs.tags.forEach((id, index) => {
            if (!known.has(id)) errors[`tags.${index}`] = [`The selected tags.${index} is invalid.`]
          })
        }
        if (Object.keys(errors).length > 0) return yield* new ValidationError({ errors: errors as FieldErrors })
      })

    const findIn = (projectId: number, id: number) =>
      prompts.find(projectId, id).pipe(
        orNotFound("Prompt")
      )

    const findTag = (projectId: number, id: number) =>
      tags.find(projectId, id).pipe(
        orNotFound("Tag")
      )

    return handlers
      .handle("list", ({ urlParams }) =>
        Effect.gen(function*() {
          const project = yield* CurrentProject
          if (urlParams.monitor_id !== undefined) yield* checkReferences(project.id, { monitor_id: urlParams.monitor_id })
          return yield* paginated(urlParams, (window) => prompts.list(project.id, { monitorId: urlParams.monitor_id }, window))
        }))
      .handle("create", ({ payload }) =>
        Effect.gen(function*() {
          const project = yield* CurrentProject
          yield* checkReferences(project.id, payload)
          const prompt = yield* prompts.create(project.id, { monitor_id: payload.monitor_id, text: payload.text, tag_ids: payload.tags })
          return { data: prompt }
        }))
      .handle("get", ({ path }) => Effect.flatMap(CurrentProject, (project) => findIn(project.id, path.prompt)).pipe(Effect.map((data) => ({ data }))))
      .handle("update", ({ path, payload }) =>
        Effect.gen(function*() {
          const project = yield* CurrentProject
          yield* checkReferences(project.id, payload)
          const prompt = yield* findIn(project.id, path.prompt)
          const updated = yield* prompts.update(prompt.id, { monitor_id: payload.monitor_id, text: payload.text, tag_ids: payload.tags })
          return { data: updated }
        }))
      .handle("delete", ({ path }) =>
        Effect.gen(function*() {
          const project = yield* CurrentProject
          const prompt = yield* findIn(project.id, path.prompt)
          yield* prompts.delete(prompt.id)
        }))
      .handle("attachTag", ({ path }) =>
        Effect.gen(function*() {
          const project = yield* CurrentProject
          const prompt = yield* findIn(project.id, path.prompt)
          const tag = yield* findTag(project.id, path.tag)
          return { data: yield* prompts.attachTag(prompt.id, tag.id) }
        }))
      .handle("detachTag", ({ path }) =>
        Effect.gen(function*() {
          const project = yield* CurrentProject
          const prompt = yield* findIn(project.id, path.prompt)
          const tag = yield* findTag(project.id, path.tag)
          return { data: yield* prompts.detachTag(prompt.id, tag.id) }
        }))
  }))
