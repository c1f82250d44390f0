import { Effect } from "effect"
import * as ApiGroup from "../Http/ApiGroup.ts"
import { CurrentKey } from "../Http/Authorize.ts"
import { OrganizationsRepo } from "./Repo.ts"
import { OrganizationsApi } from "./Api.ts"
import * as Area from "../Area.ts"
import * as OrganizationsMemory from "./RepoMemory.ts"
import * as OrganizationsSql from "./Repo.ts"

export const OrganizationsLive = ApiGroup.group(OrganizationsApi, (handlers) =>
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

/** The key's organization. */
export const OrganizationsArea = Area.make({
  groups: [OrganizationsApi],
  handlers: OrganizationsLive,
  repositories: [Area.repository(OrganizationsRepo, { sql: OrganizationsSql.layerSql, memory: OrganizationsMemory.layerMemory })],
  abilities: ["organization:read", "organization:manage"]
})
