import { OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Brand, classifications } from "../Domain/Brand.ts"
import * as Fields from "../Http/Fields.ts"
import { attachmentEndpoints, projectResourceApi } from "../Http/ProjectResourceApi.ts"

const fields = {
  name: Fields.text("name", 255),
  aliases: Fields.textList("aliases", 255, 50),
  domains: Fields.domainList("domains", 50),
  classification: Fields.oneOf("classification", classifications).annotations({
    description: "`competitor` (default), `other` or `ignored`."
  }),
  segment_ids: Fields.idList("segment_ids", 100).annotations({ description: "Segment ids of the active project: the brand's whole segment set." })
}

export const CreateBrand = Fields.input({
  name: fields.name,
  aliases: Schema.optionalWith(fields.aliases, { default: () => [], exact: true }),
  domains: Schema.optionalWith(fields.domains, { default: () => [], exact: true }),
  classification: Schema.optionalWith(fields.classification, { default: () => "competitor" as const, exact: true }),
  segment_ids: Schema.optionalWith(fields.segment_ids, { default: () => [], exact: true })
}).annotations({
  examples: [{ name: "Acme", aliases: ["Acme Inc."], domains: ["acme.com"], classification: "competitor", segment_ids: [1] }]
})

export const UpdateBrand = Fields.input({
  name: Fields.optional(fields.name),
  aliases: Fields.optional(fields.aliases),
  domains: Fields.optional(fields.domains),
  classification: Fields.optional(fields.classification),
  segment_ids: Fields.optional(fields.segment_ids).annotations({ description: "Replaces the brand's whole segment set." })
}).annotations({ examples: [{ classification: "ignored" }] })

const segmentsOf = attachmentEndpoints({
  path: "/brands",
  param: "brand",
  others: "segments",
  otherParam: "segment",
  resource: Brand,
  ability: "brands:write",
  name: "Segment",
  noun: { owner: "brand", other: "segment" }
})

export class BrandsApi extends projectResourceApi({
  group: "brands",
  path: "/brands",
  param: "brand",
  resource: Brand,
  create: CreateBrand,
  update: UpdateBrand,
  read: "brands:read",
  write: "brands:write",
  noun: { one: "brand", many: "brands" },
  describe: {
    list: "Every brand of the active project with its segment ids, by id.",
    create:
      "`name` 1-255 characters; optional `aliases`, `domains`, `classification` (default `competitor`) and `segment_ids` (segments of the active project).",
    get: "One brand of the active project, with its segment ids.",
    update:
      "Any subset of `name`, `aliases`, `domains`, `classification`, `segment_ids`; omitted fields keep their value, `segment_ids` replaces the segment set.",
    delete: "Deletes the brand with its mentions and segment attachments; a project whose own brand it was is left without one. 204."
  }
}).add(segmentsOf.attach).add(segmentsOf.detach).annotate(OpenApi.Title, "Brands") {}
