import { Effect } from "effect"
import * as ApiGroup from "../Http/ApiGroup.ts"
import * as Area from "../Area.ts"
import { Analytics } from "../Analytics/Analytics.ts"
import { decodeQuery } from "../Analytics/HttpQuery.ts"
import { type Draft, readResponseFilters, readWindowQuery } from "../Analytics/Query.ts"
import { brandOf } from "../Domain/Brand.ts"
import { CurrentProject } from "../Http/ProjectContext.ts"
import { paginated } from "../Http/Responses.ts"
import { SuggestionsApi } from "./Api.ts"
import { layerSql, type SuggestionStatus, suggestionStatuses, SuggestionsRepo } from "./Repo.ts"
import { layerMemory } from "./RepoMemory.ts"
import * as Suggestions from "./Suggestions.ts"

/** The list's query: the window and filters, and `status` (one 422 for every failing field). */
const readListQuery = (params: URLSearchParams, today: string) => {
  const draft = readWindowQuery(params, today)
  const raw = params.getAll("status").at(-1)?.trim()
  const status = raw === undefined || raw === "" ? "open" : raw
  const valid = (suggestionStatuses as ReadonlyArray<string>).includes(status)
  const gatedRaw = params.getAll("gated").at(-1)?.trim() || "true"
  const gated = gatedRaw === "true" ? true : gatedRaw === "false" ? false : undefined
  const errors = [...draft.errors]
  if (!valid) errors.push({ field: "status", index: 0, message: `The selected status is invalid. Allowed: ${suggestionStatuses.join(", ")}.` })
  if (gated === undefined) errors.push({ field: "gated", index: 0, message: "The gated field must be true or false." })
  return {
    errors,
    references: draft.references,
    value: errors.length === 0 && draft.value !== undefined ? { ...draft.value, status: status as SuggestionStatus, gated: gated! } : undefined
  }
}

export const SuggestionsLive = ApiGroup.group(SuggestionsApi, (handlers) =>
  Effect.gen(function*() {
    const analytics = yield* Analytics
    const context = yield* Effect.context<Effect.Effect.Context<ReturnType<typeof Suggestions.accept>>>()
    const run = <A, E>(effect: Effect.Effect<A, E, Effect.Effect.Context<ReturnType<typeof Suggestions.accept>>>) => Effect.provide(effect, context)

    const decode = <Q>(read: (params: URLSearchParams, today: string) => Draft<Q>) =>
      Effect.flatMap(CurrentProject, (project) =>
        Effect.map(decodeQuery(read, (references) => analytics.knownReferences(project.id, references)), (query) => ({ project, query })))

    const decision = (project: { readonly brand_id: number | null }) => (result: { brand: Parameters<ReturnType<typeof brandOf>>[0]; backfill: any }) => ({
      data: { brand: brandOf(project)(result.brand), backfill: result.backfill }
    })

    return handlers
      .handle("list", ({ urlParams }) =>
        Effect.gen(function*() {
          const { project, query } = yield* decode(readListQuery)
          return yield* paginated(urlParams, (window) => run(Suggestions.suggestionPage(project.id, { range: query.range, ...query.filters }, query.status, window, query.gated)))
        }))
      .handle("get", ({ path }) =>
        Effect.gen(function*() {
          const { project, query } = yield* decode(readResponseFilters)
          return { data: yield* run(Suggestions.getSuggestion(project.id, path.suggestion, { range: query.range, ...query.filters })) }
        }))
      .handle("accept", ({ path, payload }) =>
        Effect.flatMap(CurrentProject, (project) => Effect.map(run(Suggestions.accept(project.id, path.suggestion, payload)), decision(project))))
      .handle("merge", ({ path, payload }) =>
        Effect.flatMap(CurrentProject, (project) => Effect.map(run(Suggestions.merge(project.id, path.suggestion, payload.brand_id)), decision(project))))
      .handle("ignore", ({ path }) =>
        Effect.flatMap(CurrentProject, (project) => Effect.map(run(Suggestions.ignore(project.id, path.suggestion)), decision(project))))
      .handle("dismiss", ({ path }) =>
        Effect.flatMap(CurrentProject, (project) => Effect.map(run(Suggestions.dismiss(project.id, path.suggestion)), (data) => ({ data }))))
      .handle("untrackedShare", () =>
        Effect.gen(function*() {
          const { project, query } = yield* decode(readWindowQuery)
          return { data: yield* run(Suggestions.untrackedShare(project.id, { range: query.range, ...query.filters })) }
        }))
  }))

/** The brands the answers name that the project does not track: suggestions, decisions, the untracked share. */
export const SuggestionsArea = Area.make({
  groups: [SuggestionsApi],
  handlers: SuggestionsLive,
  repositories: [Area.repository(SuggestionsRepo, { sql: layerSql, memory: layerMemory })],
  abilities: []
})
