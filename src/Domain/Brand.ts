import { Schema } from "effect"
import { Id, Timestamps } from "./Common.ts"

/** Brands a project may have: detection reads them all for every answer (docs/api.md, "Limits"). */
export const MAX_BRANDS = 1000

export const classifications = ["competitor", "other", "ignored"] as const
export const Classification = Schema.Literal(...classifications)
export type Classification = typeof Classification.Type

const brandFields = {
  id: Id,
  project_id: Id,
  name: Schema.String,
  aliases: Schema.Array(Schema.String),
  domains: Schema.Array(Schema.String),
  classification: Classification
}

/** A brand as stored: with its segments, without what depends on its project. */
export const StoredBrand = Schema.Struct({
  ...brandFields,
  segment_ids: Schema.Array(Id).annotations({ description: "The brand's segments, by id." }),
  ...Timestamps
})
export type StoredBrand = typeof StoredBrand.Type

/** A brand as the API shows it: `is_own` when it is its project's own brand (`brand_id`). */
export const Brand = Schema.Struct({
  ...brandFields,
  is_own: Schema.Boolean.annotations({ description: "Whether it is the project's own brand (the project's `brand_id`)." }),
  segment_ids: StoredBrand.fields.segment_ids,
  ...Timestamps
}).annotations({ identifier: "Brand" })
export type Brand = typeof Brand.Type

/** The brand as its project sees it now. */
export const brandOf = (project: { readonly brand_id: number | null }) => (brand: StoredBrand): Brand => ({
  ...brand,
  is_own: brand.id === project.brand_id
})

export const Segment = Schema.Struct({
  id: Id,
  project_id: Id,
  name: Schema.String,
  ...Timestamps
}).annotations({ identifier: "Segment" })
export type Segment = typeof Segment.Type
