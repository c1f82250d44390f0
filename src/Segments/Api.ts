import { OpenApi } from "@effect/platform"
import { Segment } from "../Domain/Brand.ts"
import * as Fields from "../Http/Fields.ts"
import { projectResourceApi } from "../Http/ProjectResourceApi.ts"

export const CreateSegment = Fields.input({
  name: Fields.text("name", 255)
}).annotations({ examples: [{ name: "Enterprise CRM" }] })

export const UpdateSegment = Fields.input({
  name: Fields.optional(Fields.text("name", 255))
}).annotations({ examples: [{ name: "SMB CRM" }] })

export class SegmentsApi extends projectResourceApi({
  group: "segments",
  path: "/segments",
  param: "segment",
  resource: Segment,
  create: CreateSegment,
  update: UpdateSegment,
  read: "segments:read",
  write: "segments:write",
  noun: { one: "segment", many: "segments" },
  describe: {
    list: "Every segment of the active project, by id.",
    create: "`name` 1-255 characters, trimmed.",
    get: "One segment of the active project.",
    update: "Optional `name`; omitted, it keeps its value.",
    delete: "Removes the segment and detaches it from its brands; the brands stay. 204."
  }
})
  .annotate(OpenApi.Title, "Segments")
  .annotate(OpenApi.Description, "Groups of brands (a market, a category) that the brand analytics compare within.")
{}
