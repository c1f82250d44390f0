import { Command } from "@effect/cli"
import { Effect } from "effect"
import * as Migrations from "../Database/Migrations.ts"
import { WritingDatabaseLive } from "./Environment.ts"
import * as Output from "./Output.ts"

// Provided with the bare database (not the migrating layer of the other commands), so that the
// migrations run here and can be reported.
export const migrate = Command.make("migrate", { json: Output.json }, ({ json }) =>
  Effect.gen(function*() {
    const ran = yield* Migrations.migrate
    const applied = ran.map(([id, name]) => `${id}_${name}`)
    yield* Output.print(json, { applied }, ({ applied }) =>
      applied.length === 0
        ? "The database schema is up to date."
        : `Applied ${applied.length} ${applied.length === 1 ? "migration" : "migrations"}: ${applied.join(", ")}`)
  })).pipe(
    Command.withDescription(
      "Apply the pending database migrations (every other command does so too) and list them. " +
        "With --json {\"applied\":[...]}."
    ),
    Command.provide(WritingDatabaseLive)
  )
