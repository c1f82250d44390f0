import { Effect, Layer, Ref } from "effect"
import { TrafficRollupsRepo } from "./Repo.ts"
import { emptyRollup, mergeRollups, type Rollup } from "./Rollup.ts"

export const TrafficRollupsRepoMemory = Layer.effect(
  TrafficRollupsRepo,
  Effect.gen(function*() {
    const store = yield* Ref.make(new Map<number, Rollup>())
    return {
      record: (source, rollup) =>
        Ref.update(store, (map) => new Map(map).set(source, mergeRollups(map.get(source) ?? emptyRollup, rollup))),
      read: (source) => Ref.get(store).pipe(Effect.map((map) => map.get(source) ?? emptyRollup))
    }
  })
)
