/**
 * Recording candidates as answers are stored, and mining the stored ones again (`candidates rebuild`):
 * the two paths go through `record` (Recording.ts), so the rebuild gives the rows the incremental path
 * gave (test/unit/suggestions/storage.test.ts).
 */
import { Effect } from "effect"
import {
  type AnswerToRecord,
  latestExamples,
  mergeStoredRollups,
  type ProjectVocabulary,
  record,
  type Recording
} from "./Recording.ts"
import { SuggestionsRepo } from "./Repo.ts"

/** Answers mined between two yields: extraction runs on the event loop, a few milliseconds an answer. */
const MINING_STEP = 25

/**
 * `record` over the answers `MINING_STEP` at a time, the fiber yielding between steps so that a large batch
 * never holds the event loop long; the parts summed give what `record` of them all gives.
 */
const recordInSteps = (answers: ReadonlyArray<AnswerToRecord>, vocabulary: ProjectVocabulary) =>
  Effect.gen(function*() {
    const parts: Array<Recording> = []
    for (let i = 0; i < answers.length; i += MINING_STEP) {
      if (i > 0) yield* Effect.yieldNow()
      parts.push(record(answers.slice(i, i + MINING_STEP), vocabulary))
    }
    return {
      rollups: mergeStoredRollups(...parts.map((p) => p.rollups)),
      examples: latestExamples(parts.flatMap((p) => p.examples))
    }
  })

/** Only answers count, as in the analytics: refusals, empty answers and "no AI answer" name no rival. */
const isAnswer = (answer: { readonly answer_state?: string | undefined }) => (answer.answer_state ?? "answered") === "answered"

/**
 * The candidates of some answers just stored, added to the project's rollups. A failure is logged, never
 * the caller's: the answers are stored, and `candidates rebuild` mines them again.
 */
export const recordStored = (
  repo: SuggestionsRepo["Type"],
  projectId: number,
  answers: ReadonlyArray<AnswerToRecord & { readonly answer_state?: string | undefined }>
): Effect.Effect<void> =>
  Effect.gen(function*() {
    const counted = answers.filter(isAnswer)
    if (counted.length === 0) return
    const vocabulary = yield* repo.vocabulary(projectId)
    yield* repo.record(projectId, yield* recordInSteps(counted, vocabulary))
  }).pipe(
    Effect.catchAllCause((cause) => Effect.logWarning("brand suggestions: answers not recorded; `candidates rebuild` mines them again", cause)),
    Effect.withSpan("Suggestions.recordStored")
  )

export interface RebuildTotals {
  readonly responses: number
  readonly rollups: number
}

/**
 * Every rollup and example of the project recomputed from its stored answers, `batchSize` answers a
 * batch by id (each batch one transaction); decisions stay.
 */
export const rebuild = (projectId: number, options: { readonly batchSize: number; readonly onBatch?: (responses: number) => Effect.Effect<void> }) =>
  Effect.gen(function*() {
    const repo = yield* SuggestionsRepo
    const vocabulary = yield* repo.vocabulary(projectId)
    yield* repo.clear(projectId)
    let afterId = 0
    let responses = 0
    let rollups = 0
    while (true) {
      const batch = yield* repo.answers(projectId, afterId, options.batchSize)
      if (batch.length === 0) break
      const recording = yield* recordInSteps(batch, vocabulary)
      yield* repo.record(projectId, recording)
      responses += batch.length
      rollups += recording.rollups.length
      if (options.onBatch) yield* options.onBatch(responses)
      afterId = batch[batch.length - 1]!.id
      if (batch.length < options.batchSize) break
    }
    return { responses, rollups } satisfies RebuildTotals
  })
