import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { abilities, WILDCARD } from "../Domain/Ability.ts"
import { Id, Timestamp } from "../Domain/Common.ts"
import { guarded } from "../Http/Authorize.ts"
import * as ErrorSchemas from "../Http/ErrorSchemas.ts"
import * as Fields from "../Http/Fields.ts"
import { PaginatedSchema } from "../Http/Pagination.ts"
import { DataOf, PageQuery } from "../Http/Responses.ts"

/** A key as its organization's key managers see it: never the key itself, nor its hash. */
export const ApiKeyRecord = Schema.Struct({
  id: Id,
  name: Schema.String,
  prefix: Schema.String.annotations({ description: "The first 8 characters of the key.", examples: ["bvm_a1B2"] }),
  abilities: Schema.Array(Schema.String).annotations({ description: "As granted: ability names, or `*` for all of them." }),
  project_ids: Schema.NullOr(Schema.Array(Id)).annotations({ description: "The projects it may act in; null: every project." }),
  expires_at: Schema.NullOr(Timestamp),
  last_used_at: Schema.NullOr(Timestamp),
  revoked: Schema.Boolean,
  revoked_at: Schema.NullOr(Timestamp),
  created_at: Timestamp
}).annotations({ identifier: "ApiKeyRecord" })
export type ApiKeyRecord = typeof ApiKeyRecord.Type

/** A key just made: the only answer that ever holds the key itself. */
export const CreatedApiKey = Schema.Struct({
  ...ApiKeyRecord.fields,
  key: Schema.String.annotations({ description: "The key, `bvm_` and 40 characters: shown this once, only its SHA-256 is kept." })
}).annotations({ identifier: "CreatedApiKey" })

const grantable = [...abilities, WILDCARD] as const

export const CreateApiKey = Fields.input({
  name: Fields.text("name", 255),
  abilities: Fields.boundedArray("abilities", Fields.oneOf("abilities item", grantable), 50).pipe(
    Schema.minItems(1, { message: () => "The abilities field must have at least 1 item." })
  ).annotations({ description: "Abilities it grants, or `[\"*\"]` for all: each one the creating key has itself." }),
  project_ids: Fields.optional(Schema.NullOr(Fields.idList("project_ids", 100))).annotations({
    description: "Projects of the organization it may act in; null: all of them. Default: the creating key's own."
  }),
  expires_at: Fields.optional(Schema.NullOr(Fields.dateTime("expires_at"))).annotations({
    description: "When it stops working, in the future; null: never. Default: the creating key's own expiry."
  })
}).annotations({ examples: [{ name: "Looker Studio", abilities: ["analytics:read", "projects:read"], expires_at: new Date("2027-06-30T00:00:00Z") }] })

const keyPath = Fields.pathIds("api_key")

/** The organization's API keys, managed by a key with `keys:manage` (the dashboard's Keys page). */
export class ApiKeysApi extends HttpApiGroup.make("apiKeys")
  .add(
    HttpApiEndpoint.get("list", "/api-keys")
      .setUrlParams(Fields.input(PageQuery))
      .addSuccess(PaginatedSchema(ApiKeyRecord))
      .pipe(guarded(
        "keys:manage",
        "List API keys",
        "The keys of the organization that this key could have made (no ability, project or later expiry it lacks), by id, revoked ones included."
      ))
  )
  .add(
    HttpApiEndpoint.post("create", "/api-keys")
      .setPayload(CreateApiKey)
      .addSuccess(DataOf(CreatedApiKey), { status: 201 })
      .addError(ErrorSchemas.ValidationError)
      .pipe(guarded(
        "keys:manage",
        "Create an API key",
        "Makes a key of the organization and answers it once, in `key`; only its SHA-256 is stored. It may grant only abilities and " +
          "projects the creating key has, and expire no later (422 otherwise)."
      ))
  )
  .add(
    HttpApiEndpoint.del("revoke", "/api-keys/:api_key")
      .setPath(keyPath)
      .addError(ErrorSchemas.NotFound)
      .pipe(guarded(
        "keys:manage",
        "Revoke an API key",
        "The key stops working at once (the next request with it is a 401), and stays listed as revoked. Revoking it again changes nothing. " +
          "A key this key could not have made is not found. 204."
      ))
  )
  .annotate(OpenApi.Title, "API keys")
{}
