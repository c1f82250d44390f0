import { Either } from "effect"
import { citationsFrom } from "../Detection/Citations.ts"
import { detectMentions } from "../Detection/Mentions.ts"
import { normalizeUrl } from "../Detection/Urls.ts"
import type { FieldErrors } from "../Domain/Errors.ts"
import type { AnalyzedResponse, AnswerFields, BrandForDetection } from "./Repo.ts"

export interface CollectedResponse extends AnswerFields {
  /** The platform's citations; absent means "the URLs of the text". */
  readonly citations?: ReadonlyArray<string> | undefined
}

/**
 * Analysis of one answer (docs/api.md): its citations and the brands it mentions. Pure, so that
 * the API, the collector, the bulk import and re-analysis share it; they run it through `Analyzer`,
 * off the event loop. A citation the platform gave that is not an
 * http(s) URL is an error naming it; URLs found in the text that are not are simply not citations.
 */
export const analyze = (
  response: CollectedResponse,
  brands: ReadonlyArray<BrandForDetection>
): Either.Either<AnalyzedResponse, FieldErrors> => {
  const errors: Record<string, ReadonlyArray<string>> = {}
  response.citations?.forEach((url, index) => {
    if (normalizeUrl(url) === undefined) errors[`citations.${index}`] = [`The citations.${index} field must be an http or https URL.`]
  })
  if (Object.keys(errors).length > 0) return Either.left(errors)
  const citations = citationsFrom({ citations: response.citations, text: response.text })
  const mentions = detectMentions(response.text, brands, citations.map((citation) => citation.domain))
  return Either.right({
    monitor_id: response.monitor_id,
    prompt_id: response.prompt_id,
    platform: response.platform,
    country: response.country,
    text: response.text,
    collected_at: response.collected_at,
    citations: citations.map((citation) => ({ url: citation.raw, normalized: citation.url, domain: citation.domain })),
    mentions: mentions.map(({ brand_id, position, sentiment_score }) => ({ brand_id, position, sentiment_score }))
  })
}

/** The brand mentions of a stored answer, detected again (re-analysis): its cited domains as at ingestion. */
export const redetect = (
  text: string,
  brands: ReadonlyArray<BrandForDetection>,
  citedDomains: ReadonlyArray<string>
): AnalyzedResponse["mentions"] =>
  detectMentions(text, brands, citedDomains).map(({ brand_id, position, sentiment_score }) => ({ brand_id, position, sentiment_score }))

/**
 * Work for an analysis thread (src/Responses/Analyzer.ts), and its result: plain data, as a message
 * between threads carries it (no class survives the copy, an `Either` included).
 */
export type AnalysisJob =
  | { readonly _tag: "Analyze"; readonly response: CollectedResponse; readonly brands: ReadonlyArray<BrandForDetection> }
  | {
    readonly _tag: "Redetect"
    readonly text: string
    readonly citedDomains: ReadonlyArray<string>
    readonly brands: ReadonlyArray<BrandForDetection>
  }

export type AnalysisResult<Job extends AnalysisJob> = Job extends { readonly _tag: "Analyze" }
  ? { readonly analyzed: AnalyzedResponse } | { readonly errors: FieldErrors }
  : AnalyzedResponse["mentions"]

export const runAnalysisJob = <Job extends AnalysisJob>(job: Job): AnalysisResult<Job> => {
  if (job._tag === "Redetect") return redetect(job.text, job.brands, job.citedDomains) as AnalysisResult<Job>
  const analyzed = analyze(job.response, job.brands)
  return (Either.isRight(analyzed) ? { analyzed: analyzed.right } : { errors: analyzed.left }) as AnalysisResult<Job>
}
