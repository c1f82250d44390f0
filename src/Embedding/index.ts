/**
 * The service inside another Effect app: `import { ApiLive, MemoryLive } from "brand-visibility-monitor/server"`.
 *
 * The API is a Layer of `HttpApiBuilder` routes (`ApiRoutesLive`: the API under /api/v1, its OpenAPI
 * document, /health, /ready and the MCP server at /mcp; not the dashboard nor /docs) that the host serves
 * beside its own (added with `HttpApiBuilder.Router.use`) on its own server. It needs the repositories (`MemoryLive`, `DatabaseLive`
 * or `onDatabase` over the host's `SqlClient`), the `Settings`, an `Analyzer` and the `Metrics`.
 * docs/client.md, "Mounting the API", has a complete program.
 */
import { Effect } from "effect"
import { ApiKeysRepo } from "../ApiKeys/Repo.ts"
import { generateKey, hashKey, keyPrefix } from "../Domain/ApiKey.ts"
import { OrganizationsRepo } from "../Organizations/Repo.ts"

export { type AppSettings, Settings } from "../Config.ts"
export { layerEmbedded, layerServer } from "../Database/Database.ts"
export { Metrics } from "../Observability/Metrics.ts"
export { Analyzer } from "../Responses/Analyzer.ts"
export { ApiKeysRepo } from "../ApiKeys/Repo.ts"
export { OrganizationsRepo } from "../Organizations/Repo.ts"
export { Api } from "../Api.ts"
export { ApiRoutesLive, CollectorLive, DatabaseLive, MemoryLive, onDatabase } from "../Server.ts"

/**
 * A new organization and an API key of it (with `abilities`, `"*"` for all), as `cli orgs create` and
 * `cli keys create` make them: for a host's set-up and its tests. The key is returned once; the
 * repositories keep its hash.
 */
export const createOrganizationWithKey = (options: {
  readonly organization: string
  readonly abilities: ReadonlyArray<string>
  readonly projectIds?: ReadonlyArray<number> | null
}) =>
  Effect.gen(function*() {
    const organization = yield* (yield* OrganizationsRepo).create(options.organization)
    const key = generateKey()
    const stored = yield* (yield* ApiKeysRepo).create({
      organization_id: organization.id,
      name: "created by the host app",
      key_hash: hashKey(key),
      prefix: keyPrefix(key),
      abilities: options.abilities,
      project_ids: options.projectIds ?? null,
      expires_at: null
    })
    return { organization, keyId: stored.id, key }
  })
