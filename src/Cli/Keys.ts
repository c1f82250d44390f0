import { Args, Command, Options } from "@effect/cli"
import { Clock, Effect, Option } from "effect"
import { ApiKeysRepo } from "../ApiKeys/Repo.ts"
import { abilities, WILDCARD } from "../Domain/Ability.ts"
import { generateKey, hashKey, keyPrefix, MAX_ACTIVE_KEYS } from "../Domain/ApiKey.ts"
import { OrganizationsRepo } from "../Organizations/Repo.ts"
import { ProjectsRepo } from "../Projects/Repo.ts"
import { RepositoriesLive, WritingRepositoriesLive } from "./Environment.ts"
import { UserError } from "./Errors.ts"
import * as Input from "./Input.ts"
import * as Output from "./Output.ts"

/** The column's width (api_keys.name is varchar(255)). */
const MAX_NAME_LENGTH = 255

const DAY_MS = 24 * 60 * 60 * 1000

const organizationId = Options.integer("org").pipe(
  Options.mapEffect(Input.validated(Input.checkId("--org"))),
  Options.withPseudoName("ID"),
  Options.withDescription("The id of the organization that owns the keys.")
)

/** The organization, or a clear error: keys of an unknown organization make no sense. */
const findOrganization = (id: number) =>
  Effect.flatMap(OrganizationsRepo, (repo) => repo.findById(id)).pipe(
    Effect.flatMap(Option.match({
      onNone: () => new UserError({ message: `Organization ${id} not found.` }),
      onSome: Effect.succeed
    }))
  )

const create = Command.make("create", {
  organizationId,
  name: Options.text("name").pipe(Options.withPseudoName("NAME"), Options.withDescription("A label for the key, e.g. where it is used.")),
  abilities: Options.text("abilities").pipe(
    Options.mapEffect(Input.validated(Input.parseAbilities)),
    Options.withPseudoName("LIST"),
    Options.withDescription(`Comma-separated abilities the key grants, or "${WILDCARD}" for all: ${abilities.join(", ")}.`)
  ),
  projectIds: Options.text("projects").pipe(
    Options.mapEffect(Input.validated(Input.parseProjectIds)),
    Options.withPseudoName("IDS"),
    Options.withDescription("Comma-separated ids of the organization's projects the key may act in (default: all)."),
    Options.optional
  ),
  expiresInDays: Options.integer("expires-in-days").pipe(
    Options.mapEffect(Input.validated(Input.checkExpiresInDays)),
    Options.withPseudoName("DAYS"),
    Options.withDescription("Days until the key expires (default: never)."),
    Options.optional
  ),
  json: Output.json
}, (input) =>
  Effect.gen(function*() {
    const name = input.name.trim()
    if (name === "" || name.length > MAX_NAME_LENGTH) {
      return yield* new UserError({ message: `--name must be 1 to ${MAX_NAME_LENGTH} characters.` })
    }
    const organization = yield* findOrganization(input.organizationId)
    if (Option.isSome(input.projectIds)) {
      const own = yield* (yield* ProjectsRepo).listAll({ organizationId: organization.id, projectIds: null })
      const ownIds = new Set(own.map((project) => project.id))
      const foreign = input.projectIds.value.filter((id) => !ownIds.has(id))
      if (foreign.length > 0) {
        return yield* new UserError({
          message: `${foreign.length === 1 ? "Project" : "Projects"} ${foreign.join(", ")} ` +
            `${foreign.length === 1 ? "is not a project" : "are not projects"} of organization ${organization.id}.`
        })
      }
    }
    const now = yield* Clock.currentTimeMillis
    // The key exists only here: the database gets its hash (for lookups) and its prefix (for display).
    const key = generateKey()
    const stored = yield* (yield* ApiKeysRepo).create({
      organization_id: organization.id,
      name,
      key_hash: hashKey(key),
      prefix: keyPrefix(key),
      abilities: input.abilities,
      project_ids: Option.getOrNull(input.projectIds),
      expires_at: Option.match(input.expiresInDays, { onNone: () => null, onSome: (days) => new Date(now + days * DAY_MS) })
    }).pipe(
      Effect.catchTags({
        TooManyKeys: () =>
          new UserError({
            message: `Organization ${organization.id} already has ${MAX_ACTIVE_KEYS} active API keys, the most it may have: ` +
              `revoke one (keys revoke ID) to make another.`
          }),
        NotFound: () => new UserError({ message: `Organization ${organization.id} not found.` })
      })
    )
    yield* Output.print(input.json, { id: stored.id, key }, (created) =>
      [
        `Created API key ${created.id} (${stored.name}) for organization ${organization.id}: ${organization.name}`,
        `Key: ${created.key}`,
        "Store it now: this is the only time the key is shown, and it cannot be recovered."
      ].join("\n"))
  })).pipe(
    Command.withDescription(
      "Create an API key and print it once (only its hash is stored). With --json {\"id\",\"key\"}."
    ),
    Command.provide(WritingRepositoriesLive)
  )

const list = Command.make("list", { organizationId, json: Output.json }, ({ json, organizationId }) =>
  Effect.gen(function*() {
    const organization = yield* findOrganization(organizationId)
    const keys = yield* (yield* ApiKeysRepo).listByOrganization(organization.id)
    // An explicit field list: whatever the repository returns, the hash never reaches the output.
    const rows = keys.map((key) => ({
      id: key.id,
      name: key.name,
      prefix: key.prefix,
      abilities: key.abilities,
      project_ids: key.project_ids,
      expires_at: key.expires_at,
      revoked: key.revoked_at !== null,
      revoked_at: key.revoked_at,
      last_used_at: key.last_used_at,
      created_at: key.created_at
    }))
    yield* Output.print(json, rows, (rows) =>
      rows.length === 0
        ? `Organization ${organization.id} has no API keys.`
        : Output.table(
          ["ID", "NAME", "PREFIX", "ABILITIES", "PROJECTS", "EXPIRES_AT", "REVOKED", "LAST_USED_AT"],
          rows.map((key) => [
            String(key.id),
            key.name,
            key.prefix,
            key.abilities.join(","),
            key.project_ids === null ? "all" : key.project_ids.join(","),
            Output.timestamp(key.expires_at),
            key.revoked_at === null ? "no" : `yes (${Output.timestamp(key.revoked_at)})`,
            Output.timestamp(key.last_used_at)
          ])
        ))
  })).pipe(
    Command.withDescription(
      "List an organization's API keys: id, name, prefix, abilities, projects, expiry, revocation, last use. " +
        "Never the keys themselves."
    ),
    Command.provide(RepositoriesLive)
  )

const revoke = Command.make("revoke", {
  id: Args.integer({ name: "id" }).pipe(
    Args.mapEffect(Input.validatedArg(Input.checkId("The key id"))),
    Args.withDescription("The id of the key to revoke.")
  ),
  json: Output.json
}, ({ id, json }) =>
  Effect.gen(function*() {
    const revoked = yield* (yield* ApiKeysRepo).revoke(id)
    if (!revoked) return yield* new UserError({ message: `API key ${id} not found.` })
    yield* Output.print(json, { id, revoked: true }, () => `Revoked API key ${id}.`)
  })).pipe(
    Command.withDescription("Revoke an API key: it stops working at once. Revoking twice keeps the first time."),
    Command.provide(WritingRepositoriesLive)
  )

export const keys = Command.make("keys").pipe(
  Command.withDescription("Manage API keys: create (shown once), list, revoke."),
  Command.withSubcommands([create, list, revoke])
)
