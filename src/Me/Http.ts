import { Effect } from "effect"
import * as ApiGroup from "../Http/ApiGroup.ts"
import { expand } from "../Domain/Ability.ts"
import { CurrentKey } from "../Http/Authorize.ts"
import { scopeOf } from "../Http/ProjectContext.ts"
import { OrganizationsRepo } from "../Organizations/Repo.ts"
import { ProjectsRepo } from "../Projects/Repo.ts"
import { MeApi } from "./Api.ts"
import * as Area from "../Area.ts"

export const MeLive = ApiGroup.group(MeApi, (handlers) =>
  Effect.gen(function*() {
    const organizations = yield* OrganizationsRepo
    const projects = yield* ProjectsRepo
    return handlers.handle("me", () =>
      Effect.gen(function*() {
        const key = yield* CurrentKey
        const organization = yield* organizations.findById(key.organization_id).pipe(Effect.flatten, Effect.orDie)
        const reachable = yield* projects.listAll(scopeOf(key))
        return {
          data: {
            key: {
              id: key.id,
              name: key.name,
              prefix: key.prefix,
              created_at: key.created_at,
              expires_at: key.expires_at,
              last_used_at: key.last_used_at
            },
            organization: { id: organization.id, name: organization.name },
            abilities: expand(key.abilities),
            projects: reachable.map((project) => ({ id: project.id, name: project.name }))
          }
        }
      })
    )
  }))

/** The key making the request: `GET /me`. */
export const MeArea = Area.make({
  groups: [MeApi],
  handlers: MeLive,
  repositories: [],
  abilities: []
})
