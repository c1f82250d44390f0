import { expect, layer } from "@effect/vitest"
import { Effect, Layer, Option, TestClock } from "effect"
import * as Jobs from "../../../src/Collector/Jobs.ts"
import { type PlatformClient, Platforms, unreported } from "../../../src/Collector/Platform.ts"
import { RunsRepo } from "../../../src/Collector/Runs/Repo.ts"
import * as Worker from "../../../src/Collector/Worker.ts"
import * as Repositories from "../../../src/Repositories.ts"
import { Analyzer } from "../../../src/Responses/Analyzer.ts"
import { Ingestion } from "../../../src/Responses/Ingestion.ts"
import { SuggestionsRepo } from "../../../src/Suggestions/Repo.ts"
import { migratedSql } from "../../support/Databases.ts"
import { sqlBackend } from "../../support/TestServer.ts"
import { monitorWithPrompts } from "./fixtures.ts"

/** The collector's answers are mined for brand suggestions as they are stored, as the API's are (src/Suggestions/Mining.ts). */
const Live = Layer.mergeAll(Jobs.layerSql, Ingestion.layer).pipe(
  Layer.provideMerge(Layer.merge(Repositories.layerSql, Analyzer.inProcess)),
  Layer.provideMerge(migratedSql)
)

const platforms = Platforms.of({
  client: (platform) =>
    Option.some<PlatformClient>({
      platform,
      ask: () =>
        Effect.succeed({
          text: "The best options:\n\n1. **Acme** — solid.\n2. **Zylomatic** — cheap.\n3. **Globex** — fine.",
          citations: [],
          simulated: false,
          ...unreported
        })
    })
})

layer(Live, { timeout: 60_000 })(`collector and brand suggestions (${sqlBackend})`, (it) => {
  it.effect("a collected answer's untracked brands are recorded with the answer", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(Date.now())
      const { monitor, project } = yield* monitorWithPrompts({ prompts: 1, platforms: ["chatgpt", "claude"] })
      const slot = new Date(Math.floor(Date.now() / 86_400_000) * 86_400_000)
      yield* (yield* RunsRepo).create(monitor, { slot, trigger: "manual", deadline: null })
      const worker = yield* Worker.make({ leaseMs: 60_000, maxAttempts: 3, concurrency: 2 }).pipe(Effect.provideService(Platforms, platforms))
      expect(yield* worker.drain).toBeGreaterThanOrEqual(2)
      const rollups = yield* (yield* SuggestionsRepo).rollups(project.id, {})
      expect(rollups.map((r) => [r.key, r.platform, r.answers, r.in_list, r.with_competitor])).toEqual([
        ["zylomatic", "chatgpt", 1, 1, 1],
        ["zylomatic", "claude", 1, 1, 1]
      ])
    }))
})
