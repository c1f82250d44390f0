import { Effect, Either, Option } from "effect"
import * as ApiGroup from "../Http/ApiGroup.ts"
import { Analytics } from "../Analytics/Analytics.ts"
import { Api } from "../Api.ts"
import { orDefect } from "../Database/Rows.ts"
import { type FieldErrors, orNotFound, ValidationError } from "../Domain/Errors.ts"
import { decodeResponseFilters } from "../Http/FilterQuery.ts"
import { CurrentProject } from "../Http/ProjectContext.ts"
import { checkReferences } from "../Http/ProjectResourceHandlers.ts"
import { listed } from "../Http/Cursor.ts"
import { MonitorsRepo } from "../Monitors/Repo.ts"
import { PromptsRepo } from "../Prompts/Repo.ts"
import { Analyzer } from "./Analyzer.ts"
import { detailsOf } from "./Api.ts"
import { citationKeyParts, defaultResponseOrder, responseKeyParts, ResponsesRepo } from "./Repo.ts"

/** A little clock skew is tolerated; an answer collected in the future is a client's bug. */
const FUTURE_TOLERANCE_MS = 5 * 60_000

export const ResponsesLive = ApiGroup.group(Api, "responses", (handlers) =>
  Effect.gen(function*() {
    const responses = yield* ResponsesRepo
    const prompts = yield* PromptsRepo
    const monitors = yield* MonitorsRepo
    const analytics = yield* Analytics
    const analyzer = yield* Analyzer

    /** The window and filters of the request, their ids the project's own (422 otherwise). */
    const filtersOf = (projectId: number) =>
      decodeResponseFilters((references) => orDefect(analytics.knownReferences(projectId, references)))

    /** Filter ids must be the project's own (422 otherwise), as for every list. */
    const checkFilterIds = (projectId: number, ids: { readonly monitor_id?: number | undefined; readonly prompt_id?: number | undefined }) =>
      checkReferences([
        { field: "monitor_id", ids: ids.monitor_id, existing: (list) => monitors.existing(projectId, list) },
        { field: "prompt_id", ids: ids.prompt_id, existing: (list) => prompts.existing(projectId, list) }
      ])

    return handlers
      .handle("list", ({ urlParams }) =>
        Effect.gen(function*() {
          const project = yield* CurrentProject
          yield* checkFilterIds(project.id, urlParams)
          const filter = {
            ...(yield* filtersOf(project.id)),
            monitorId: urlParams.monitor_id,
            promptId: urlParams.prompt_id,
            platform: urlParams.platform,
            status: urlParams.status
          }
          const order = {
            by: urlParams.sort_by ?? defaultResponseOrder.by,
            direction: urlParams.sort_order ?? defaultResponseOrder.direction
          }
          return yield* listed(
            urlParams,
            { endpoint: "responses", projectId: project.id, parts: responseKeyParts(order) },
            (window) => responses.list(project.id, filter, window, order),
            (keyset) => responses.listAfter(project.id, filter, keyset, order)
          )
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
          yield* checkReferences([{
            field: "response_id",
            ids: urlParams.response_id,
            existing: (ids) => Effect.map(responses.findMany(project.id, ids), (found) => found.map((response) => response.id))
          }])
          const filter = { ...(yield* filtersOf(project.id)), responseId: urlParams.response_id }
          return yield* listed(
            urlParams,
            { endpoint: "citations", projectId: project.id, parts: citationKeyParts },
            (window) => responses.citations(project.id, filter, window),
            (keyset) => responses.citationsAfter(project.id, filter, keyset)
          )
        }))
      .handle("create", ({ payload }) =>
        Effect.gen(function*() {
          const project = yield* CurrentProject
          // Made only when needed: an error captures a stack trace, a cost on every answer stored otherwise.
          const invalidPrompt = Effect.suspend(() => ValidationError.field("prompt_id", "The selected prompt id is invalid."))
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
          const analyzed = yield* analyzer.analyze({
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
          // The prompt (or its monitor) deleted since it was found: invalid, as it would be now.
          const [stored] = yield* responses.insertAnalyzed(project.id, [{ ...analyzed.right, ...detailsOf(payload) }]).pipe(
            Effect.catchIf((error) => error.resource === "Prompt", () => invalidPrompt)
          )
          return { data: stored! }
        }))
  }))
