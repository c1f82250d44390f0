import { Effect, Layer, Redacted } from "effect"
import * as Database from "../../src/Database/Database.ts"
import * as Migrations from "../../src/Database/Migrations.ts"
import { createDatabase, sqlBackend } from "./TestServer.ts"

/** An empty SQL database for one test suite: PGlite in memory, or a fresh PostgreSQL database. */
export const freshSql = Layer.unwrapScoped(Effect.gen(function*() {
  if (sqlBackend === "embedded") return Database.layerEmbedded(undefined)
  const db = yield* Effect.acquireRelease(
    Effect.promise(() => createDatabase(process.env.DATABASE_URL!)),
    (db) => Effect.promise(() => db.drop())
  )
  return Database.layerServer(Redacted.make(db.url))
}))

/** A migrated SQL database for one test suite. */
export const migratedSql = Layer.provideMerge(Migrations.layer, freshSql)
