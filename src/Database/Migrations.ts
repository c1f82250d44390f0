import { NodeContext } from "@effect/platform-node"
import { fromFileSystem } from "@effect/sql/Migrator/FileSystem"
import { PgMigrator } from "@effect/sql-pg"
import { Effect, Layer } from "effect"
import { fileURLToPath } from "node:url"

/** The top-level `migrations/` folder: `NNNN_name.ts` files, each a default-exported Effect. */
const directory = fileURLToPath(new URL("../../migrations", import.meta.url))

/** Applies every migration not yet applied; returns the ones it ran. */
export const migrate = PgMigrator.run({ loader: fromFileSystem(directory), table: "schema_migrations" }).pipe(
  Effect.provide(NodeContext.layer),
  Effect.tap((applied) =>
    applied.length === 0
      ? Effect.logDebug("database schema is up to date")
      : Effect.logInfo("applied migrations").pipe(Effect.annotateLogs("migrations", applied.map(([id, name]) => `${id}_${name}`)))
  )
)

/** Runs the migrations when the layer is built: the server is never up on an old schema. */
export const layer = Layer.effectDiscard(migrate)
