import { Args, Command } from "@effect/cli"
import { Effect } from "effect"
import { OrganizationsRepo } from "../Organizations/Repo.ts"
import { RepositoriesLive, WritingRepositoriesLive } from "./Environment.ts"
import { UserError } from "./Errors.ts"
import * as Output from "./Output.ts"

/** The column's width (organizations.name is varchar(255)). */
const MAX_NAME_LENGTH = 255

const name = Args.text({ name: "name" }).pipe(Args.withDescription("The organization's name."))

const create = Command.make("create", { name, json: Output.json }, ({ json, name }) =>
  Effect.gen(function*() {
    const trimmed = name.trim()
    if (trimmed === "") return yield* new UserError({ message: "The organization name must not be empty." })
    if (trimmed.length > MAX_NAME_LENGTH) {
      return yield* new UserError({ message: `The organization name must be at most ${MAX_NAME_LENGTH} characters.` })
    }
    const organization = yield* (yield* OrganizationsRepo).create(trimmed)
    yield* Output.print(
      json,
      { id: organization.id, name: organization.name },
      (org) => `Created organization ${org.id}: ${org.name}`
    )
  })).pipe(
    Command.withDescription("Create an organization. Prints its id; with --json {\"id\",\"name\"}."),
    Command.provide(WritingRepositoriesLive)
  )

const list = Command.make("list", { json: Output.json }, ({ json }) =>
  Effect.gen(function*() {
    const organizations = yield* (yield* OrganizationsRepo).list
    yield* Output.print(
      json,
      organizations.map((org) => ({ id: org.id, name: org.name, created_at: org.created_at })),
      (orgs) =>
        orgs.length === 0
          ? "No organizations."
          : Output.table(["ID", "NAME", "CREATED_AT"], orgs.map((org) => [String(org.id), org.name, Output.timestamp(org.created_at)]))
    )
  })).pipe(
    Command.withDescription("List every organization (id, name, creation time)."),
    Command.provide(RepositoriesLive)
  )

export const orgs = Command.make("orgs").pipe(
  Command.withDescription("Manage organizations, the tenants that own projects and API keys."),
  Command.withSubcommands([create, list])
)
