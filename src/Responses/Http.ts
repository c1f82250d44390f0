import { HttpApiBuilder } from "@effect/platform"
import { Effect, Either, Option } from "effect"
import { Api } from "../Api.ts"
import { type FieldErrors, orNotFound, ValidationError } from "../Domain/Errors.ts"
import { CurrentProject } from "../Http/ProjectContext.ts"
import { paginated } from "../Http/Responses.ts"
import { MonitorsRepo } from "../Monitors/Repo.ts"
import { PromptsRepo } from "../Prompts/Repo.ts"
import { analyze } from "./Analysis.ts"
import { ResponsesRepo } from "./Repo.ts"

/** A little clock skew is tolerated; an answer collected in the future is a client's bug. */
const FUTURE_TOLERANCE_MS = 5 * 60_000

export const ResponsesLive = HttpApiBuilder.group(Api, "responses", (handlers) =>
  Effect.gen(function*() {
    const responses = yield* ResponsesRepo
    const prompts = yield* PromptsRepo
    const monitors = yield* MonitorsRepo

    /** Filter ids must be the project's own (422 otherwise), as for every list. */
    const checkFilterIds = (projectId: number, ids: { readonly monitor_id?: number | undefined; readonly prompt_id?: number | undefined }) =>
      Effect.gen(function*() {
        const errors: Record<string, ReadonlyArray<string>> = {}
        if (ids.monitor_id !== undefined && Option.isNone(yield* monitors.find(projectId, ids.monitor_id))) {
          errors.monitor_id = ["The selected monitor id is invalid."]
        }
        if (ids.prompt_id !== undefined && Option.isNone(yield* prompts.find(projectId, ids.prompt_id))) {
          errors.prompt_id = ["The selected prompt id is invalid."]
        }
        if (Object.keys(errors).length > 0) return yield* new ValidationError({ errors })
      })

    return handlers
      .handle("list", ({ urlParams }) =>
        Effect.gen(function*() {
          const project = yield* CurrentProject
          yield* checkFilterIds(project.id, urlParams)
          const { start_date, end_date } = urlParams
          if (start_date !== undefined && end_date !== undefined && end_date < start_date) {
            return yield* ValidationError.field("end_date", "The end date field must be a date after or equal to start date.")
          }
          const filter = {
            monitorId: urlParams.monitor_id,
            promptId: urlParams.prompt_id,
            platform: urlParams.platform,
            status: urlParams.status,
            from: start_date,
            to: end_date === undefined ? undefined : new Date(end_date.getTime() + 86_400_000 - 1)
          }
          return yield* paginated(urlParams, (window) => responses.list(project.id, filter, window))
        }))
      .handle("get", ({ path }) =>
        CurrentProject.pipe(
          Effect.flatMap((project) => responses.find(project.id, path.response)),
          orNotFound("Response"),
          Effect.map((data) => ({ data }))
        ))
      .handle("citations", ({ urlParams }) =>
        Effect.gen(function*() {
          const project = yield* CurrentProject
          if (urlParams.response_id !== undefined && Option.isNone(yield* responses.find(project.id, urlParams.response_id))) {
            return yield* ValidationError.field("response_id", "The selected response id is invalid.")
          }
          return yield* paginated(urlParams, (window) => responses.citations(project.id, { responseId: urlParams.response_id }, window))
        }))
      .handle("create", ({ payload }) =>
        Effect.gen(function*() {
          const project = yield* CurrentProject
          const invalidPrompt = ValidationError.field("prompt_id", "The selected prompt id is invalid.")
          const prompt = yield* prompts.find(project.id, payload.prompt_id)
          if (Option.isNone(prompt)) return yield* invalidPrompt
          // Gone in between only when the prompt (or its project) was just deleted.
          const found = yield* monitors.find(project.id, prompt.value.monitor_id)
          if (Option.isNone(found)) return yield* invalidPrompt
          const monitor = found.value
          const errors: Record<string, ReadonlyArray<string>> = {}
          if (!monitor.platforms.includes(payload.platform)) {
            errors.platform = [`The selected platform is not one of the monitor's platforms (${monitor.platforms.join(", ")}).`]
          }
          const collectedAt = payload.collected_at ?? new Date()
          if (collectedAt.getTime() > Date.now() + FUTURE_TOLERANCE_MS) {
            errors.collected_at = ["The collected at field must be a date before or equal to now."]
          }
          const brands = yield* responses.brandsForDetection(project.id)
          const analyzed = analyze({
            monitor_id: monitor.id,
            prompt_id: prompt.value.id,
            platform: payload.platform,
            country: payload.country ?? monitor.country,
            text: payload.text,
            collected_at: collectedAt,
            citations: payload.citations
          }, brands)
          const allErrors: FieldErrors = { ...errors, ...(Either.isLeft(analyzed) ? analyzed.left : {}) }
          if (Object.keys(allErrors).length > 0 || Either.isLeft(analyzed)) return yield* new ValidationError({ errors: allErrors })
          const [stored] = yield* responses.insertAnalyzed(project.id, [analyzed.right])
          return { data: stored! }
        }))
  }))
