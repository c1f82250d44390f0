import { Effect, Layer, Option } from "effect"
import { byId, MemoryStore, pageOf } from "../Memory/Store.ts"
import { SourcesRepo } from "./Repo.ts"

export const layerMemory = Layer.effect(
  SourcesRepo,
  Effect.map(MemoryStore, (db) =>
    SourcesRepo.of({
      list: (projectId, window) =>
        Effect.sync(() =>
          pageOf(byId(db.table("sources").values()).filter((s) => s.project_id === projectId).map(({ project_id: _, ...s }) => s), window)
        ),
      find: (projectId, id) =>
        Effect.sync(() =>
          Option.fromNullable(db.table("sources").get(id)).pipe(
            Option.filter((s) => s.project_id === projectId),
            Option.map(({ project_id: _, ...s }) => s)
          )
        ),
      listUrls: (projectId, filter, window) =>
        Effect.sync(() =>
          pageOf(
            byId(db.table("source_urls").values())
              .filter((u) => u.project_id === projectId && (filter.sourceId === undefined || u.source_id === filter.sourceId))
              .map(({ project_id: _, ...u }) => u),
            window
          )
        )
    }))
)
