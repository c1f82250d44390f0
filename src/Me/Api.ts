import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { Ability } from "../Domain/Ability.ts"
import { ApiKeyView } from "../Domain/ApiKey.ts"
import { Id } from "../Domain/Common.ts"
import { authenticated } from "../Http/Authorize.ts"
import { DataOf } from "../Http/Responses.ts"

export const Me = Schema.Struct({
  key: ApiKeyView,
  organization: Schema.Struct({ id: Id, name: Schema.String }),
  abilities: Schema.Array(Ability).annotations({ description: "The abilities in effect, `*` expanded." }),
  projects: Schema.Array(Schema.Struct({ id: Id, name: Schema.String })).annotations({
    description: "The projects the key may act in (a plain array, not paginated)."
  })
}).annotations({ identifier: "Me" })

export class MeApi extends HttpApiGroup.make("me")
  .add(
    HttpApiEndpoint.get("me", "/me")
      .addSuccess(DataOf(Me))
      .middleware(authenticated)
      .annotate(OpenApi.Summary, "Identity check")
      .annotate(
        OpenApi.Description,
        "The key, its organization, the abilities in effect and the projects it may act in. Needs no ability and no project header."
      )
  )
  .annotate(OpenApi.Title, "Identity")
{}
