import { HttpApiEndpoint, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { rawQuery } from "../Analytics/HttpQuery.ts"
import { platforms } from "../Domain/Platform.ts"
import { guarded } from "../Http/Authorize.ts"
import * as ErrorSchemas from "../Http/ErrorSchemas.ts"
import * as Fields from "../Http/Fields.ts"
import { projectResourceApi } from "../Http/ProjectResourceApi.ts"
import { ProjectHeader } from "../Http/ProjectContext.ts"
import { DataOf } from "../Http/Responses.ts"
import { AgentTrafficRow, AiReferralRow, referralGroupings } from "./Analytics.ts"
import { formats } from "./Formats/Formats.ts"
import { TrafficSource, TrafficUpload, uploadStatuses } from "./Sources.ts"

const fieldPath = (field: string) => Fields.text(field, 255)

const FieldMapInput = Schema.Struct({
  time: fieldPath("field_map.time"),
  path: fieldPath("field_map.path"),
  status: fieldPath("field_map.status"),
  method: Fields.optional(fieldPath("field_map.method")),
  host: Fields.optional(fieldPath("field_map.host")),
  bytes: Fields.optional(fieldPath("field_map.bytes")),
  user_agent: Fields.optional(fieldPath("field_map.user_agent")),
  ip: Fields.optional(fieldPath("field_map.ip")),
  referer: Fields.optional(fieldPath("field_map.referer")),
  content_type: Fields.optional(fieldPath("field_map.content_type"))
}).annotations({ message: () => "The field map field must be an object." })

const siteHosts = Fields.boundedArray("site_hosts", Fields.hostname("site_hosts item"), 50).pipe(
  Schema.transform(Schema.Array(Schema.String), { strict: true, decode: (hosts) => [...new Set(hosts)], encode: (hosts) => hosts })
).annotations({
  jsonSchema: {
    type: "array",
    items: { type: "string", format: "hostname" },
    maxItems: 50,
    description: "At most 50 hostnames (`www.example.com`), stored lower-case; repeats count once. Empty: every host is counted."
  }
})

const fields = {
  site_hosts: siteHosts,
  format: Fields.oneOf("format", formats),
  field_map: Schema.NullOr(FieldMapInput)
}

export const CreateTrafficSource = Fields.input({
  name: Fields.text("name", 255),
  site_hosts: Fields.optional(fields.site_hosts),
  format: Fields.optional(fields.format),
  field_map: Fields.optional(fields.field_map)
}).annotations({ examples: [{ name: "nginx www", site_hosts: ["www.example.com", "example.com"], format: "combined" }] })

export const UpdateTrafficSource = Fields.input({
  name: Fields.optional(Fields.text("name", 255)),
  site_hosts: Fields.optional(fields.site_hosts),
  format: Fields.optional(fields.format),
  field_map: Fields.optional(fields.field_map)
}).annotations({ examples: [{ format: "auto" }] })

const WindowQuery = {
  start_date: rawQuery("First day of the window (inclusive, UTC), `YYYY-MM-DD`.", { type: "string", format: "date" }),
  end_date: rawQuery("Last day of the window (inclusive, UTC), `YYYY-MM-DD`: on or after `start_date`, not after today.", { type: "string", format: "date" }),
  "platforms[]": rawQuery("Only agents that feed (referrals: visits from) these platforms. Repeated: `platforms[]=a&platforms[]=b`.", {
    type: "array",
    items: { type: "string", enum: platforms }
  })
}

const Period = Schema.Struct({ start_date: Schema.String, end_date: Schema.String })

export const AgentTrafficAnswer = Schema.Struct({
  data: Schema.Array(AgentTrafficRow),
  meta: Schema.Struct({ window: Period, previous: Period })
})

export const AiReferralsAnswer = Schema.Struct({
  data: Schema.Array(AiReferralRow),
  meta: Schema.Struct({
    window: Period,
    group_by: Schema.Literal(...referralGroupings),
    visits: Schema.Number,
    visitors: Schema.Number,
    lower_bound: Schema.Literal(true).annotations({
      description: "Always true: most AI apps send no referrer, so these counts are the visits known to come from AI platforms, not all of them."
    })
  })
})

const uploadPath = Fields.pathIds("traffic_source")

export class TrafficApi extends projectResourceApi({
  group: "traffic",
  path: "/traffic-sources",
  param: "traffic_source",
  resource: TrafficSource,
  create: CreateTrafficSource,
  update: UpdateTrafficSource,
  read: "traffic:read",
  write: "traffic:write",
  noun: { one: "traffic source", many: "traffic sources" },
  describe: {
    list: "Every traffic source of the active project, by id.",
    create:
      "`name` 1-255 characters; `site_hosts` the hosts counted (empty, the default: every host); `format` `auto` (default), `combined`, `common`, " +
      "`cloudfront`, `alb`, `cloudflare_logpush`, `vercel` or `ndjson`; `field_map` required with `ndjson` (where each line keeps `time`, `path`, `status`, ...).",
    get: "One traffic source of the active project.",
    update: "Optional `name`, `site_hosts`, `format`, `field_map`; omitted, each keeps its value. Counted uploads are not recounted.",
    delete: "Removes the source with its uploads and everything they counted. 204."
  }
})
  .add(
    HttpApiEndpoint.post("upload", "/traffic-sources/:traffic_source/uploads")
      .setPath(uploadPath)
      .setHeaders(ProjectHeader)
      .addSuccess(DataOf(Schema.Struct({ id: Schema.Number, status: Schema.Literal(...uploadStatuses) })), { status: 202 })
      .addError(ErrorSchemas.NotFound)
      .addError(ErrorSchemas.ValidationError)
      // The body is read as a stream by the handler, not decoded by the API: described here for the document.
      .annotate(OpenApi.Transform, (operation) => ({
        ...operation,
        requestBody: {
          required: true,
          description: "The raw log file, plain or gzip-compressed.",
          content: { "application/octet-stream": { schema: { type: "string", format: "binary" } } }
        }
      }))
      .pipe(guarded(
        "traffic:write",
        "Upload a log",
        "The raw log file as the body (any content type; gzip recognised by its first bytes), streamed, with no size limit. " +
          "202: the log is read after the answer; `GET .../uploads/{upload}` reports it. The same file sent again answers its first upload, counted once."
      ))
  )
  .add(
    HttpApiEndpoint.get("getUpload", "/traffic-sources/:traffic_source/uploads/:upload")
      .setPath(Fields.pathIds("traffic_source", "upload"))
      .setHeaders(ProjectHeader)
      .addSuccess(DataOf(TrafficUpload))
      .addError(ErrorSchemas.NotFound)
      .pipe(guarded("traffic:read", "Read an upload", "Its status and what the log held: lines read, unparsed, agent hits, referral visits, first and last request."))
  )
  .add(
    HttpApiEndpoint.get("agentTraffic", "/analytics/agent-traffic")
      .setUrlParams(Schema.Struct(WindowQuery))
      .setHeaders(ProjectHeader)
      .addSuccess(AgentTrafficAnswer)
      .addError(ErrorSchemas.ValidationError)
      .pipe(guarded(
        "traffic:read",
        "Agent traffic",
        "A row per catalogue agent seen in the window across the project's sources: hits, pages, the verdict counts, the verified share with its " +
          "95% Wilson interval, status classes, first and last day, and the change against the period of the same length before."
      ))
  )
  .add(
    HttpApiEndpoint.get("aiReferrals", "/analytics/ai-referrals")
      .setUrlParams(Schema.Struct({
        ...WindowQuery,
        group_by: rawQuery("`platform` (default), `page` or `day`.", { type: "string", enum: referralGroupings, default: "platform" })
      }))
      .setHeaders(ProjectHeader)
      .addSuccess(AiReferralsAnswer)
      .addError(ErrorSchemas.ValidationError)
      .pipe(guarded(
        "traffic:read",
        "AI referrals",
        "Visits the AI platforms sent to the site in the window, by platform, page or day, with distinct visitors. A lower bound: most AI apps send no referrer."
      ))
  )
  .annotate(OpenApi.Title, "Agent traffic")
{}
