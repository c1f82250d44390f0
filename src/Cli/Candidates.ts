import { Command } from "@effect/cli"
import { Clock, Effect } from "effect"
import { rebuild } from "../Suggestions/Mining.ts"
import { WritingRepositoriesLive } from "./Environment.ts"
import { batchSize, count, findProject, progressLine, projectOption } from "./Import.ts"
import * as Output from "./Output.ts"

/**
 * `candidates rebuild --project ID`: the brand suggestions' rollups and examples of a project mined again
 * from its stored answers (docs/suggestions.md): for a project whose answers predate suggestions, or after
 * its prompts or brands changed. Decisions (dismissed, accepted…) stay.
 */
const rebuildCommand = Command.make("rebuild", {
  projectId: projectOption,
  batchSize: batchSize("Responses"),
  json: Output.json
}, (input) =>
  Effect.gen(function*() {
    const project = yield* findProject(input.projectId)
    const started = yield* Clock.currentTimeMillis
    const progress = progressLine()
    const totals = yield* rebuild(project.id, {
      batchSize: input.batchSize,
      onBatch: (responses) => progress.update(() => `mined ${count(responses)} responses`)
    })
    yield* progress.clear
    const ms = (yield* Clock.currentTimeMillis) - started
    yield* Output.print(input.json, { ...totals, seconds: Math.round(ms) / 1000 }, (s) =>
      `Mined ${count(s.responses)} responses in ${s.seconds.toFixed(2)} s: ${count(s.rollups)} candidate rollups.`)
  })).pipe(
    Command.withDescription(
      "Mine a project's stored answers again for brand suggestions (rollups and examples), in batches, each one " +
        "transaction; decisions stay. With --json {\"responses\",\"rollups\",\"seconds\"}."
    ),
    Command.provide(WritingRepositoriesLive)
  )

export const candidates = Command.make("candidates").pipe(
  Command.withDescription("Brand suggestions: the candidate brands the stored answers name."),
  Command.withSubcommands([rebuildCommand])
)
