import { NodeContext } from "@effect/platform-node"
import { Migrator } from "@effect/sql"
import { PgMigrator } from "@effect/sql-pg"
import { Effect, Layer } from "effect"
import { migrations } from "../../migrations/index.ts"
import * as PlannerStatistics from "./PlannerStatistics.ts"

/** Applies every migration of `migrations/` not yet applied; returns the ones it ran. */
export const migrate = PgMigrator.run({ loader: Migrator.fromRecord(migrations), table: "schema_migrations" }).pipe(
  Effect.provide(NodeContext.layer),
  Effect.tap((applied) =>
    applied.length === 0
      ? Effect.logDebug("database schema is up to date")
      : Effect.logInfo("applied migrations").pipe(Effect.annotateLogs("migrations", applied.map(([id, name]) => `${id}_${name}`)))
  )
)

/**
 * Runs the migrations when the layer is built: the server is never up on an old schema. Then the
 * planner's statistics: of every table after a migration (new tables, new indexes, rows rewritten), else
 * of the tables never analyzed (a database older than this rule).
 */
export const layer = Layer.effectDiscard(
  Effect.flatMap(migrate, (applied) => applied.length > 0 ? PlannerStatistics.analyzeAll : PlannerStatistics.analyzeNeverAnalyzed)
)
