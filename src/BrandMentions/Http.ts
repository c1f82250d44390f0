import { Effect, Option } from "effect"
import * as ApiGroup from "../Http/ApiGroup.ts"
import { Analytics } from "../Analytics/Analytics.ts"
import { orDefect } from "../Database/Rows.ts"
import { BrandsRepo } from "../Brands/Repo.ts"
import { brandOf } from "../Domain/Brand.ts"
import type { Project } from "../Domain/Project.ts"
import { BrandMention } from "../Domain/Response.ts"
import { exportOf } from "../Integrations/HttpExport.ts"
import { decodeResponseFilters } from "../Analytics/HttpQuery.ts"
import { CurrentProject } from "../Http/ProjectContext.ts"
import { checkReferences } from "../Http/ProjectResourceHandlers.ts"
import { listed } from "../Http/Cursor.ts"
import { MonitorsRepo } from "../Monitors/Repo.ts"
import { OrganizationsRepo } from "../Organizations/Repo.ts"
import { PromptsRepo } from "../Prompts/Repo.ts"
import { ResponsesRepo } from "../Responses/Repo.ts"
import { BrandMentionWithRelations, type Include } from "./Api.ts"
import { BrandMentionsRepo, mentionKeyParts } from "./Repo.ts"
import { BrandMentionsApi } from "./Api.ts"
import * as Area from "../Area.ts"
import * as BrandMentionsMemory from "./RepoMemory.ts"
import * as BrandMentionsSql from "./Repo.ts"

const byId = <A extends { readonly id: number }>(rows: ReadonlyArray<A>) => new Map(rows.map((row) => [row.id, row] as const))
const distinct = (ids: ReadonlyArray<number>) => [...new Set(ids)]

export const BrandMentionsLive = ApiGroup.group(BrandMentionsApi, (handlers) =>
  Effect.gen(function*() {
    const mentions = yield* BrandMentionsRepo
    const responses = yield* ResponsesRepo
    const prompts = yield* PromptsRepo
    const monitors = yield* MonitorsRepo
    const brands = yield* BrandsRepo
    const organizations = yield* OrganizationsRepo
    const analytics = yield* Analytics

    /**
     * The included relations of a page, one query per relation, never per row. A nested relation
     * (`response.prompt`) brings its parent along. Responses and brands belong to the active project,
     * so `*.project` is that project, and its organization one lookup.
     */
    const withRelations = (project: Project, page: ReadonlyArray<BrandMention>, include: ReadonlySet<Include>) =>
      Effect.gen(function*() {
        const has = (prefix: string) => [...include].some((name) => name === prefix || name.startsWith(`${prefix}.`))
        const responseRows = byId(has("response") ? yield* responses.findMany(project.id, distinct(page.map((m) => m.response_id))) : [])
        const responseList = [...responseRows.values()]
        const promptRows = byId(include.has("response.prompt") ? yield* prompts.findMany(project.id, distinct(responseList.map((r) => r.prompt_id))) : [])
        const monitorRows = byId(include.has("response.monitor") ? yield* monitors.findMany(project.id, distinct(responseList.map((r) => r.monitor_id))) : [])
        const brandRows = byId(has("brand") ? yield* brands.findMany(project.id, distinct(page.map((m) => m.brand_id))) : [])
        const organization = include.has("brand.project.organization")
          ? Option.getOrUndefined(yield* organizations.findById(project.organization_id))
          : undefined

        return page.map((mention): BrandMentionWithRelations => {
          const response = responseRows.get(mention.response_id)
          const brand = brandRows.get(mention.brand_id)
          return {
            ...mention,
            ...(response === undefined ? {} : {
              response: {
                ...response,
                ...(include.has("response.prompt") ? { prompt: promptRows.get(response.prompt_id) } : {}),
                ...(include.has("response.monitor") ? { monitor: monitorRows.get(response.monitor_id) } : {}),
                ...(include.has("response.project") ? { project } : {})
              }
            }),
            ...(brand === undefined ? {} : {
              brand: {
                ...brandOf(project)(brand),
                ...(has("brand.project")
                  ? { project: { ...project, ...(organization === undefined ? {} : { organization }) } }
                  : {})
              }
            })
          }
        })
      })

    return handlers.handle("list", ({ urlParams }) =>
      Effect.gen(function*() {
        const project = yield* CurrentProject
        yield* checkReferences([
          {
            field: "response_id",
            ids: urlParams.response_id,
            existing: (ids) => Effect.map(responses.findMany(project.id, ids), (found) => found.map((response) => response.id))
          },
          { field: "brand_id", ids: urlParams.brand_id, existing: (ids) => brands.existing(project.id, ids) }
        ])
        const order = { by: urlParams.sort_by ?? "created_at", direction: urlParams.sort_order ?? "desc" } as const
        const filters = yield* decodeResponseFilters((references) => orDefect(analytics.knownReferences(project.id, references)))
        const filter = { ...filters, responseId: urlParams.response_id, brandId: urlParams.brand_id }
        const include = new Set(urlParams.include ?? [])
        // A download of every mention: with the included relations (their columns), chunk by chunk.
        const exported = yield* exportOf({
          format: urlParams.format,
          resource: "brand-mentions",
          row: (include.size === 0 ? BrandMention : BrandMentionWithRelations) as typeof BrandMentionWithRelations,
          byKey: (keyset) =>
            Effect.flatMap(mentions.listAfter(project.id, filter, order, keyset), (page) =>
              include.size === 0 ? Effect.succeed(page) : Effect.map(withRelations(project, page.rows, include), (rows) => ({ ...page, rows })))
        })
        if (Option.isSome(exported)) return exported.value
        const page = yield* listed(
          urlParams,
          { endpoint: "brand-mentions", projectId: project.id, parts: mentionKeyParts(order) },
          (window) => mentions.list(project.id, filter, order, window),
          (keyset) => mentions.listAfter(project.id, filter, order, keyset)
        )
        if (include.size === 0) return page
        return { ...page, data: yield* withRelations(project, page.data, include) }
      }))
  }))

/** The brands the project's responses mention (with the brands' abilities). */
export const BrandMentionsArea = Area.make({
  groups: [BrandMentionsApi],
  handlers: BrandMentionsLive,
  repositories: [Area.repository(BrandMentionsRepo, { sql: BrandMentionsSql.layerSql, memory: BrandMentionsMemory.layerMemory })],
  abilities: []
})
