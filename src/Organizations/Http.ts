import { Effect } from "effect"
import * as ApiGroup from "../Http/ApiGroup.ts"
import { Api } from "../Api.ts"
import { CurrentKey } from "../Http/Authorize.ts"
import { OrganizationsRepo } from "./Repo.ts"

export const OrganizationsLive = ApiGroup.group(Api, "organization", (handlers) =>
  Effect.gen(function*() {
    const organizations = yield* OrganizationsRepo
    const current = CurrentKey.pipe(
      Effect.flatMap((key) => organizations.findById(key.organization_id)),
      Effect.flatten,
      Effect.orDie
    )
    return handlers
      .handle("get", () => Effect.map(current, (data) => ({ data })))
      .handle("update", ({ payload }) =>
        Effect.gen(function*() {
          const organization = yield* current
          if (payload.name === undefined) return { data: organization }
          return { data: yield* organizations.rename(organization.id, payload.name) }
        }))
  }))
