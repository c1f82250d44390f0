import { HttpServerRequest } from "@effect/platform"
import { NodeHttpServerRequest } from "@effect/platform-node"
import { Clock, Effect, Layer, Option } from "effect"
import * as Area from "../Area.ts"
import { TrafficApi } from "./Api.ts"
import { TrafficRepoMemory } from "./RepoMemory.ts"
import * as TrafficSql from "./RepoSql.ts"
import { AgentsApi } from "./ApiAgents.ts"
import { AgentsLive } from "./HttpAgents.ts"
import { formatDate } from "../Analytics/Analytics.ts"
import { NotFound, ValidationError } from "../Domain/Errors.ts"
import * as ApiGroup from "../Http/ApiGroup.ts"
import { CurrentProject } from "../Http/ProjectContext.ts"
import { projectResourceHandlers } from "../Http/ProjectResourceHandlers.ts"
import { agentTraffic, aiReferrals, previousPeriod, type ReferralGrouping, referralGroupings, readWindow } from "./Analytics.ts"
import { TrafficRepo } from "./Repo.ts"
import { Salt } from "./Salt.ts"
import type { LogFormat } from "./Formats/Formats.ts"
import type { SourceFieldMap } from "./Sources.ts"
import { receive } from "./Uploads.ts"

/** `ndjson` needs a field map: checked on the source as it would be after the write. */
const checkFieldMap = (format: LogFormat, fieldMap: SourceFieldMap | null) =>
  format === "ndjson" && fieldMap === null
    ? Effect.fail(new ValidationError({ errors: { field_map: ["The field map field is required when format is ndjson."] } }))
    : Effect.void

/** The request's query string. */
const searchParams = Effect.map(HttpServerRequest.HttpServerRequest, (request) =>
  Option.getOrElse(HttpServerRequest.toURL(request), () => new URL(request.url, "http://localhost")).searchParams)

/** The analytics' window and platforms, checked (a 422 lists every failing field), with `extra` read beside. */
const window = Effect.gen(function*() {
  const params = yield* searchParams
  const read = readWindow(params, formatDate(yield* Clock.currentTimeMillis))
  if ("errors" in read) return yield* new ValidationError({ errors: read.errors })
  return { window: read.window, params }
})

const TrafficHandlers = ApiGroup.group(TrafficApi, (handlers) =>
  Effect.gen(function*() {
    const repo = yield* TrafficRepo
    const salt = yield* Salt
    const resource = projectResourceHandlers(repo.sources, "Traffic source")
    const rowsOf = (range: { readonly start: string; readonly end: string }) =>
      Effect.flatMap(CurrentProject, (project) => repo.projectRows(project.id, range))
    return handlers
      .handle("list", resource.list)
      .handle("get", ({ path }) => resource.get(path.traffic_source))
      .handle("delete", ({ path }) => resource.delete(path.traffic_source))
      .handle("create", ({ payload }) =>
        Effect.gen(function*() {
          const values = { site_hosts: [], format: "auto" as const, field_map: null, ...payload }
          yield* checkFieldMap(values.format, values.field_map)
          return yield* resource.create(values)
        }))
      .handle("update", ({ path, payload }) =>
        Effect.gen(function*() {
          const current = yield* resource.find(path.traffic_source)
          yield* checkFieldMap(payload.format ?? current.format, payload.field_map === undefined ? current.field_map : payload.field_map)
          return yield* resource.update(current.id, payload)
        }))
      .handle("upload", ({ path }) =>
        Effect.gen(function*() {
          const source = yield* resource.find(path.traffic_source)
          const request = yield* HttpServerRequest.HttpServerRequest
          const body = NodeHttpServerRequest.toIncomingMessage(request)
          const upload = yield* receive(source, body, { background: true }).pipe(
            Effect.catchTag("LogReadError", () => Effect.fail(new ValidationError({ errors: { body: ["The log could not be received whole."] } }))),
            Effect.provideService(TrafficRepo, repo),
            Effect.provideService(Salt, salt)
          )
          return { data: { id: upload.id, status: upload.status } }
        }))
      .handle("getUpload", ({ path }) =>
        Effect.gen(function*() {
          const source = yield* resource.find(path.traffic_source)
          const upload = yield* repo.findUpload(source.id, path.upload)
          if (Option.isNone(upload)) return yield* new NotFound({ resource: "Upload" })
          return { data: upload.value }
        }))
      .handle("agentTraffic", () =>
        Effect.gen(function*() {
          const { window: chosen } = yield* window
          const previous = previousPeriod(chosen)
          const data = agentTraffic(yield* rowsOf(chosen), yield* rowsOf(previous), chosen)
          return {
            data,
            meta: { window: { start_date: chosen.start, end_date: chosen.end }, previous: { start_date: previous.start, end_date: previous.end } }
          }
        }))
      .handle("aiReferrals", () =>
        Effect.gen(function*() {
          const { params, window: chosen } = yield* window
          const raw = params.getAll("group_by").at(-1)?.trim() ?? ""
          const groupBy = (raw === "" ? "platform" : raw) as ReferralGrouping
          if (!(referralGroupings as ReadonlyArray<string>).includes(groupBy)) {
            return yield* new ValidationError({ errors: { group_by: [`The selected group by is invalid. Allowed: ${referralGroupings.join(", ")}.`] } })
          }
          const { data, totals } = aiReferrals((yield* rowsOf(chosen)).referrals, chosen, groupBy)
          return {
            data,
            meta: { window: { start_date: chosen.start, end_date: chosen.end }, group_by: groupBy, ...totals, lower_bound: true as const }
          }
        }))
  }))

/** The traffic endpoints, with the daily salts of the visitors' hashes (one set per process). */
export const TrafficLive = TrafficHandlers.pipe(Layer.provide(Salt.layer))

/** What AI crawlers and assistants read of the project's site: the agent catalogue, log sources and uploads, their analytics. */
export const TrafficArea = Area.make({
  groups: [AgentsApi, TrafficApi],
  handlers: Layer.merge(AgentsLive, TrafficLive),
  repositories: [Area.repository(TrafficRepo, { sql: TrafficSql.layerSql, memory: TrafficRepoMemory })],
  abilities: ["traffic:read", "traffic:write"]
})
