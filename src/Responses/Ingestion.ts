import { Clock, Context, Effect, Either, Layer } from "effect"
import { type FieldErrors, type NotFound, ValidationError } from "../Domain/Errors.ts"
import type { Platform } from "../Domain/Platform.ts"
import type { AnswerDetails, Response } from "../Domain/Response.ts"
import { MonitorsRepo } from "../Monitors/Repo.ts"
import { recordStored } from "../Suggestions/Mining.ts"
import { SuggestionsRepo } from "../Suggestions/Repo.ts"
import { PromptsRepo } from "../Prompts/Repo.ts"
import { Analyzer } from "./Analyzer.ts"
import { type AnalyzedResponse, type BrandForDetection, ResponsesRepo } from "./Repo.ts"

/**
 * The one path by which an answer enters (docs/architecture.md, "Ingestion"): `POST /responses`, the
 * bulk import and the collector's workers all come through here, so the rules are written once. An
 * answer must name a prompt of the project; its platform must be one of the prompt's monitor's and its
 * `collected_at` not in the future; its country defaults to the monitor's. It is then analyzed
 * (citations, sources, brand mentions) off the event loop, its details kept as given (a retrieved URL
 * it also cites dropped, a repeat kept once), and stored with its analysis in one transaction.
 */

/** An answer as a client gives it: the body of POST /responses, a line of an import. */
export interface IncomingAnswer extends AnswerDetails {
  readonly prompt_id: number
  readonly platform: Platform
  readonly text: string
  readonly citations?: ReadonlyArray<string> | undefined
  readonly collected_at?: Date | undefined
  readonly country?: string | undefined
}

/** A little clock skew is tolerated; an answer collected in the future is a client's bug. */
export const FUTURE_TOLERANCE_MS = 5 * 60_000

/**
 * A collector job's answer: asked for the job's prompt on the job's platform, for the run's monitor in
 * its country, as they were when the run was made (docs/collector.md), at a known instant.
 */
export interface CollectedAnswer extends IncomingAnswer {
  readonly monitor_id: number
  readonly country: string
  readonly collected_at: Date
}

/** Where an answer is stored: the monitor it counts under, the platforms it may be of, its country by default. */
interface Destination {
  readonly monitor_id: number
  readonly platforms: ReadonlyArray<Platform>
  readonly country: string
}

const INVALID_PROMPT: FieldErrors = { prompt_id: ["The selected prompt id is invalid."] }

/** The answer details of an ingested answer, its retrieved URLs without those it cites. */
export const detailsOf = (input: AnswerDetails & { readonly citations?: ReadonlyArray<string> | undefined }): AnswerDetails => {
  const cited = new Set(input.citations ?? [])
  return {
    model: input.model,
    answer_state: input.answer_state,
    finish_reason: input.finish_reason,
    input_tokens: input.input_tokens,
    output_tokens: input.output_tokens,
    cost_usd: input.cost_usd,
    search_queries: input.search_queries,
    retrieved_urls: input.retrieved_urls === undefined
      ? undefined
      : [...new Set(input.retrieved_urls)].filter((url) => !cited.has(url))
  }
}

export class Ingestion extends Context.Tag("Ingestion")<Ingestion, {
  /**
   * Answers of one project checked and analyzed, not stored: each one analyzed, or the field errors
   * a 422 would list. Their prompts and monitors are looked up in one go, as are the project's brands
   * unless given.
   */
  readonly prepare: (
    projectId: number,
    answers: ReadonlyArray<IncomingAnswer>,
    brands?: ReadonlyArray<BrandForDetection>
  ) => Effect.Effect<ReadonlyArray<Either.Either<AnalyzedResponse, FieldErrors>>>
  /**
   * A collector job's answer checked and analyzed as `prepare` does, not stored: its monitor, platform
   * and country are the job's (its prompt the job holds locked while it stores), and the brands those
   * the question carried.
   */
  readonly prepareCollected: (
    projectId: number,
    answer: CollectedAnswer,
    brands: ReadonlyArray<BrandForDetection>
  ) => Effect.Effect<Either.Either<AnalyzedResponse, FieldErrors>>
  /**
   * Analyzed answers stored in one transaction (within the caller's, if it runs in one: the collector
   * stores a job's answer in the transaction that finishes the job): `NotFound` (Prompt) when a prompt
   * (or its monitor) was deleted since it was checked, `NotFound` (Project) when the project was, and
   * nothing is stored then.
   */
  readonly store: (
    projectId: number,
    analyzed: ReadonlyArray<AnalyzedResponse>
  ) => Effect.Effect<ReadonlyArray<Response>, NotFound>
  /** One answer in, as POST /responses takes it: checked, analyzed and stored, or a 422. */
  readonly ingest: (projectId: number, answer: IncomingAnswer) => Effect.Effect<Response, ValidationError | NotFound>
}>() {
  static readonly layer = Layer.effect(
    Ingestion,
    Effect.gen(function*() {
      const prompts = yield* PromptsRepo
      const monitors = yield* MonitorsRepo
      const responses = yield* ResponsesRepo
      const analyzer = yield* Analyzer
      const suggestions = yield* SuggestionsRepo

      /** The rules of one answer bound for `destination`, and its analysis. */
      const check = (
        answer: IncomingAnswer,
        destination: Destination,
        brands: ReadonlyArray<BrandForDetection>,
        now: number
      ): Effect.Effect<Either.Either<AnalyzedResponse, FieldErrors>> => {
        const errors: Record<string, ReadonlyArray<string>> = {}
        if (!destination.platforms.includes(answer.platform)) {
          errors.platform = [`The selected platform is not one of the monitor's platforms (${destination.platforms.join(", ")}).`]
        }
        const collectedAt = answer.collected_at ?? new Date(now)
        if (collectedAt.getTime() > now + FUTURE_TOLERANCE_MS) {
          errors.collected_at = ["The collected at field must be a date before or equal to now."]
        }
        return Effect.map(analyzer.analyze({
          monitor_id: destination.monitor_id,
          prompt_id: answer.prompt_id,
          platform: answer.platform,
          country: answer.country ?? destination.country,
          text: answer.text,
          collected_at: collectedAt,
          citations: answer.citations
        }, brands), (analyzed): Either.Either<AnalyzedResponse, FieldErrors> => {
          const all: FieldErrors = { ...errors, ...(Either.isLeft(analyzed) ? analyzed.left : {}) }
          if (Object.keys(all).length > 0 || Either.isLeft(analyzed)) return Either.left(all)
          return Either.right({ ...analyzed.right, ...detailsOf(answer) })
        })
      }

      const prepare = Effect.fn("Ingestion.prepare")(function*(
        projectId: number,
        answers: ReadonlyArray<IncomingAnswer>,
        given?: ReadonlyArray<BrandForDetection>
      ) {
        const promptIds = [...new Set(answers.map((answer) => answer.prompt_id))]
        yield* Effect.annotateCurrentSpan(spanOfAnswers(projectId, answers))
        const promptsFound = yield* prompts.findMany(projectId, promptIds)
        const monitorsFound = yield* monitors.findMany(projectId, [...new Set(promptsFound.map((prompt) => prompt.monitor_id))])
        const promptOf = new Map(promptsFound.map((prompt) => [prompt.id, prompt] as const))
        const monitorOf = new Map(monitorsFound.map((monitor) => [monitor.id, monitor] as const))
        const brands = given ?? (yield* responses.brandsForDetection(projectId))
        const now = yield* Clock.currentTimeMillis
        // All at once: they wait for the analysis threads, each free thread taking the next answer.
        return yield* Effect.forEach(answers, (answer) => {
          const prompt = promptOf.get(answer.prompt_id)
          // The monitor is gone only when the prompt (or its project) was just deleted.
          const monitor = prompt === undefined ? undefined : monitorOf.get(prompt.monitor_id)
          if (monitor === undefined) return Effect.succeed(Either.left(INVALID_PROMPT))
          return check(answer, { monitor_id: monitor.id, platforms: monitor.platforms, country: monitor.country }, brands, now)
        }, { concurrency: "unbounded" })
      })

      const prepareCollected = Effect.fn("Ingestion.prepareCollected")(function*(
        projectId: number,
        answer: CollectedAnswer,
        brands: ReadonlyArray<BrandForDetection>
      ) {
        yield* Effect.annotateCurrentSpan({ ...spanOfAnswers(projectId, [answer]), "monitor.id": answer.monitor_id })
        const destination = { monitor_id: answer.monitor_id, platforms: [answer.platform], country: answer.country }
        return yield* check(answer, destination, brands, yield* Clock.currentTimeMillis)
      })

      const store = Effect.fn("Ingestion.store")(function*(projectId: number, analyzed: ReadonlyArray<AnalyzedResponse>) {
        yield* Effect.annotateCurrentSpan(spanOfAnswers(projectId, analyzed))
        if (analyzed.length === 0) return []
        const stored = yield* responses.insertAnalyzed(projectId, analyzed)
        // Brand suggestions' candidates (src/Suggestions/Mining.ts), in the order stored.
        yield* recordStored(suggestions, projectId, stored.map((s, i) => ({ ...s, citations: analyzed[i]!.citations.map((c) => c.url) })))
        return stored
      })

      const ingest = Effect.fn("Ingestion.ingest")(function*(projectId: number, answer: IncomingAnswer) {
        yield* Effect.annotateCurrentSpan(spanOfAnswers(projectId, [answer]))
        const [prepared] = yield* prepare(projectId, [answer])
        if (Either.isLeft(prepared!)) return yield* new ValidationError({ errors: prepared.left })
        // The prompt (or its monitor) deleted since it was found: invalid, as it would be now.
        const [stored] = yield* store(projectId, [prepared.right]).pipe(
          Effect.catchIf((gone) => gone.resource === "Prompt", () => new ValidationError({ errors: INVALID_PROMPT }))
        )
        return stored!
      })

      return Ingestion.of({ prepare, prepareCollected, store, ingest })
    })
  )
}

/**
 * The attributes of an ingestion's span: its project, how many answers, and the prompt and platform
 * when they are one.
 */
const spanOfAnswers = (
  projectId: number,
  answers: ReadonlyArray<{ readonly prompt_id: number; readonly platform: Platform }>
): Record<string, unknown> => {
  const promptIds = new Set(answers.map((answer) => answer.prompt_id))
  const platforms = new Set(answers.map((answer) => answer.platform))
  return {
    "project.id": projectId,
    "answers": answers.length,
    ...(promptIds.size === 1 ? { "prompt.id": answers[0]!.prompt_id } : {}),
    ...(platforms.size === 1 ? { "platform": answers[0]!.platform } : {})
  }
}
