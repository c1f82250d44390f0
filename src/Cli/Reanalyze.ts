import { Command } from "@effect/cli"
import { Clock, Effect, Layer } from "effect"
import { Analyzer } from "../Responses/Analyzer.ts"
import { ResponsesRepo } from "../Responses/Repo.ts"
import { WritingRepositoriesLive } from "./Environment.ts"
import { batchSize, count, findProject, perSecond, progressLine, projectOption } from "./Import.ts"
import * as Output from "./Output.ts"

/**
 * `reanalyze --project ID`: brand mention detection run again over a project's stored responses, so that
 * a brand's new name, alias or domain (or a brand added or now ignored) reaches history. Responses and
 * their citations stay as they are, ids included; the cited domains feed detection as at ingestion.
 */

export interface ReanalysisTotals {
  readonly responses: number
  readonly mentions: number
}

/**
 * Re-detects the mentions of the project's analyzed responses, `batchSize` responses a batch by id, each
 * batch's mentions replaced in one transaction; `onBatch` hears the totals after each. The brands are
 * read once, at the start.
 */
export const reanalyzeProject = (
  projectId: number,
  options: {
    readonly batchSize: number
    readonly onBatch?: (totals: ReanalysisTotals) => Effect.Effect<void>
  }
): Effect.Effect<ReanalysisTotals, never, ResponsesRepo | Analyzer> =>
  Effect.gen(function*() {
    const repo = yield* ResponsesRepo
    const analyzer = yield* Analyzer
    const brands = yield* repo.brandsForDetection(projectId)
    let totals: ReanalysisTotals = { responses: 0, mentions: 0 }
    let afterId = 0
    while (true) {
      const batch = yield* repo.forReanalysis(projectId, afterId, options.batchSize)
      if (batch.length === 0) break
      const detected = yield* Effect.forEach(batch, (response) =>
        Effect.map(analyzer.redetect(response.text, brands, response.citedDomains), (mentions) => ({ responseId: response.id, mentions })), {
        concurrency: "unbounded"
      })
      yield* repo.replaceMentions(projectId, detected)
      totals = {
        responses: totals.responses + batch.length,
        mentions: totals.mentions + detected.reduce((sum, response) => sum + response.mentions.length, 0)
      }
      if (options.onBatch) yield* options.onBatch(totals)
      afterId = batch[batch.length - 1]!.id
      if (batch.length < options.batchSize) break
    }
    return totals
  })

export const reanalyze = Command.make("reanalyze", {
  projectId: projectOption,
  batchSize: batchSize("Responses"),
  json: Output.json
}, (input) =>
  Effect.gen(function*() {
    const project = yield* findProject(input.projectId)
    const started = yield* Clock.currentTimeMillis
    const progress = progressLine()
    const totals = yield* reanalyzeProject(project.id, {
      batchSize: input.batchSize,
      onBatch: (totals) =>
        Effect.gen(function*() {
          const elapsed = (yield* Clock.currentTimeMillis) - started
          yield* progress.update(() =>
            `reanalyzed ${count(totals.responses)} responses (${count(totals.mentions)} mentions), ` +
            `${count(perSecond(totals.responses, elapsed))} responses/s`
          )
        })
    })
    yield* progress.clear
    const ms = (yield* Clock.currentTimeMillis) - started
    yield* Output.print(input.json, { ...totals, seconds: Math.round(ms) / 1000 }, (s) =>
      `Reanalyzed ${count(s.responses)} responses in ${s.seconds.toFixed(2)} s ` +
      `(${count(perSecond(s.responses, ms))} responses/s): ${count(s.mentions)} brand mentions.`)
  })).pipe(
    Command.withDescription(
      "Detect brand mentions again in a project's analyzed responses (after a brand's aliases or domains " +
        "changed), in batches, each one transaction. Responses and citations keep their ids. With --json " +
        "{\"responses\",\"mentions\",\"seconds\"}."
    ),
    Command.provide(Layer.merge(WritingRepositoriesLive, Analyzer.threads()))
  )
