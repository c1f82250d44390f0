import { Effect, Layer, Redacted } from "effect"
import * as Database from "../../src/Database/Database.ts"
import * as Migrations from "../../src/Database/Migrations.ts"
import { createDatabase, emptySnapshot, migratedSnapshot, sqlBackend } from "./TestServer.ts"

/** A SQL database for one test suite: PGlite in memory, or a fresh PostgreSQL database; migrated unless `empty`. */
const sqlDatabase = (empty: boolean) =>
  Layer.unwrapScoped(Effect.gen(function*() {
    if (sqlBackend === "embedded") return Database.layerEmbedded(undefined, undefined, empty ? emptySnapshot() : migratedSnapshot())
    const db = yield* Effect.acquireRelease(
      Effect.promise(() => createDatabase(process.env.DATABASE_URL!, { empty })),
      (db) => Effect.promise(() => db.drop())
    )
    return Database.layerServer(Redacted.make(db.url))
  }))

/**
 * An empty SQL database for one test suite: for the tests of the migrations themselves. On the embedded
 * database, a copy of the run's just-initialized one (PGlite's initdb is most of its start-up).
 */
export const freshSql = sqlDatabase(true)

/**
 * A migrated SQL database for one test suite: a copy of the run's migrated one; the migrations still run
 * (and find nothing to do), so a suite without the run's setup gets a migrated database too.
 */
export const migratedSql = Layer.provideMerge(Migrations.layer, sqlDatabase(false))
