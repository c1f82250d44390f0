import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { ParseResult, Schema } from "effect"
import { Brand } from "../Domain/Brand.ts"
import { Monitor } from "../Domain/Monitor.ts"
import { Organization } from "../Domain/Organization.ts"
import { Project } from "../Domain/Project.ts"
import { Prompt } from "../Domain/Prompt.ts"
import { BrandMention, Response } from "../Domain/Response.ts"
import { guarded } from "../Http/Authorize.ts"
import * as ErrorSchemas from "../Http/ErrorSchemas.ts"
import * as Fields from "../Http/Fields.ts"
import { CursorQuery, ListSchema } from "../Http/Cursor.ts"
import { ExportQuery } from "../Integrations/HttpExport.ts"
import { listFilterQuery } from "../Analytics/HttpQuery.ts"
import { ProjectContext, ProjectHeader } from "../Http/ProjectContext.ts"
import { PageQuery } from "../Http/Responses.ts"
import { sortColumns } from "./Repo.ts"

/** The relations `include` may name (docs/api.md), each nested under its parent. */
export const includable = [
  "response",
  "response.prompt",
  "response.monitor",
  "response.project",
  "brand",
  "brand.project",
  "brand.project.organization"
] as const
export type Include = (typeof includable)[number]

const IncludeList = Schema.String.pipe(
  Schema.transformOrFail(Schema.Array(Schema.Literal(...includable)), {
    strict: true,
    decode: (value, _, ast) => {
      const names = value.split(",").map((name) => name.trim()).filter((name) => name !== "")
      const unknown = names.filter((name) => !(includable as ReadonlyArray<string>).includes(name))
      return unknown.length > 0
        ? ParseResult.fail(
          new ParseResult.Type(ast, value, `The include field has unknown relations: ${unknown.join(", ")}. Allowed: ${includable.join(", ")}.`)
        )
        : ParseResult.succeed(names as Array<Include>)
    },
    encode: (names) => ParseResult.succeed(names.join(","))
  })
).annotations({ jsonSchema: { type: "string", description: `Comma-separated: ${includable.join(", ")}.`, examples: ["response.prompt,brand"] } })

export const BrandMentionsQuery = Fields.input({
  ...PageQuery,
  ...CursorQuery,
  ...ExportQuery,
  ...listFilterQuery,
  response_id: Fields.optional(Fields.idQuery("response_id")),
  brand_id: Fields.optional(Fields.idQuery("brand_id")),
  sort_by: Fields.optional(Fields.oneOf("sort_by", sortColumns).annotations({ description: "Default `created_at`." })),
  sort_order: Fields.optional(Fields.oneOf("sort_order", ["asc", "desc"] as const).annotations({ description: "Default `desc`." })),
  include: Fields.optional(IncludeList)
})

const ResponseWithRelations = Schema.Struct({
  ...Response.fields,
  prompt: Schema.optionalWith(Prompt, { exact: true }),
  monitor: Schema.optionalWith(Monitor, { exact: true }),
  project: Schema.optionalWith(Project, { exact: true })
}).annotations({ identifier: "IncludedResponse" })

const BrandWithRelations = Schema.Struct({
  ...Brand.fields,
  project: Schema.optionalWith(
    Schema.Struct({ ...Project.fields, organization: Schema.optionalWith(Organization, { exact: true }) }),
    { exact: true }
  )
}).annotations({ identifier: "IncludedBrand" })

export const BrandMentionWithRelations = Schema.Struct({
  ...BrandMention.fields,
  response: Schema.optionalWith(ResponseWithRelations, { exact: true }),
  brand: Schema.optionalWith(BrandWithRelations, { exact: true })
}).annotations({ identifier: "BrandMentionWithRelations" })
export type BrandMentionWithRelations = typeof BrandMentionWithRelations.Type

export class BrandMentionsApi extends HttpApiGroup.make("brandMentions")
  .add(
    HttpApiEndpoint.get("list", "/brand-mentions")
      .setUrlParams(BrandMentionsQuery)
      .setHeaders(ProjectHeader)
      .addSuccess(ListSchema(BrandMentionWithRelations))
      .addError(ErrorSchemas.ValidationError)
      .pipe(guarded("brands:read", "List brand mentions", "Every brand mention of the active project, newest first, with its response's `collected_at`. " +
          "Filters `response_id`, `brand_id`, and those of the responses: `start_date` and `end_date` (on `collected_at`, together), " +
          "`platforms[]`, `countries[]`, `monitors[]`, `tags[]`; `sort_by` one of " +
          `${sortColumns.join(", ")} with \`sort_order\` asc or desc (id breaks ties); \`include\` nests related resources ` +
          "(`response.prompt` under `response`, `brand.project.organization` under `brand.project`). `cursor` reads the list by cursor " +
          "instead of by page."))
  )
  .middleware(ProjectContext)
  .annotate(OpenApi.Title, "Brand mentions")
{}
