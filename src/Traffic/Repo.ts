import { Context, type Effect } from "effect"
import type { Rollup } from "./Rollup.ts"

/**
 * Where a traffic source's rollups are kept. The in-memory layer (RepoMemory.ts) is the reference the
 * database one will be held to.
 */
export class TrafficRollupsRepo extends Context.Tag("TrafficRollupsRepo")<TrafficRollupsRepo, {
  /** Adds a log's rollup to the source's (rows of the same key merged: counts added, visitors united). */
  readonly record: (source: number, rollup: Rollup) => Effect.Effect<void>
  readonly read: (source: number) => Effect.Effect<Rollup>
}>() {}
