/**
 * Brand suggestions as the API serves them (docs/suggestions.md): the candidates of a window with their
 * evidence, gate and rank; the decisions (dismiss, ignore, accept, merge); and the backfill of an accepted
 * or merged brand's mentions over the project's stored answers, in short chunks, in the background.
 */
import { Effect, Option } from "effect"
import { type ConfidenceInterval, percentage, wilson } from "../Analytics/Statistics.ts"
import { BrandLimitReached, BrandsRepo } from "../Brands/Repo.ts"
import type { Classification, StoredBrand } from "../Domain/Brand.ts"
import { NotFound, ValidationError } from "../Domain/Errors.ts"
import type { Platform } from "../Domain/Platform.ts"
import { Analyzer } from "../Responses/Analyzer.ts"
import type { ResponseFilters } from "../Responses/Filters.ts"
import { ResponsesRepo } from "../Responses/Repo.ts"
import type { CandidateEvidence } from "./Evidence.ts"
import { categoryWordsOf, keyOf } from "./Keys.ts"
import { newestFirst } from "./Recording.ts"
import { defaultGate, reopensAfterDismissal, scoreCandidate } from "./Ranking.ts"
import { type BackfillStatus, type SuggestionRecord, SuggestionsRepo, type SuggestionStatus } from "./Repo.ts"
import { windowCandidates } from "./Window.ts"

export interface SuggestionExample {
  readonly response_id: number
  readonly platform: Platform
  readonly day: string
  readonly snippet: string
  readonly highlight: { readonly start: number; readonly end: number }
  readonly offset: number
}

/** One suggestion as the API shows it. */
export interface SuggestionView {
  readonly id: number
  readonly key: string
  readonly name: string
  readonly status: SuggestionStatus
  readonly variants: ReadonlyArray<{ readonly name: string; readonly answers: number }>
  readonly domains: ReadonlyArray<{ readonly domain: string; readonly answers: number }>
  readonly answers_count: number
  readonly responses_count: number
  readonly rate: number
  readonly rate_ci: ConfidenceInterval
  readonly prompts_count: number
  readonly platforms: ReadonlyArray<Platform>
  readonly list_share: number
  readonly lift: number | null
  readonly average_order: number
  readonly passes_gate: boolean
  readonly gate_failures: ReadonlyArray<string>
  readonly why: string
  readonly examples: ReadonlyArray<SuggestionExample>
  readonly first_seen_on: string | null
  readonly last_seen_on: string | null
  readonly brand_id: number | null
  readonly backfill: { readonly status: BackfillStatus; readonly backfilled_responses: number } | null
}

const DECIDED: ReadonlyArray<SuggestionStatus> = ["accepted", "merged", "ignored"]

/** Answers re-detected per step of a backfill: short, so that one project's backfill never holds the database long. */
export const BACKFILL_CHUNK = 100

const emptyEvidence = (key: string): CandidateEvidence => ({
  key,
  name: key,
  variants: [],
  domains: [],
  answers: 0,
  prompts: [],
  platforms: [],
  in_list: 0,
  bold: 0,
  linked: 0,
  cited: 0,
  with_competitor: 0,
  order_sum: 0,
  first_seen_on: "",
  last_seen_on: ""
})

/** The status shown: a dismissed suggestion whose rate's lower bound has since doubled is open again. */
const shownStatus = (record: SuggestionRecord, lowNow: number | undefined): SuggestionStatus =>
  record.status === "dismissed" && record.dismissed_low !== null && lowNow !== undefined && reopensAfterDismissal(record.dismissed_low, lowNow)
    ? "open"
    : record.status

/** Everything the window says of the project's candidates, each with its record. */
const windowOf = (projectId: number, filters: ResponseFilters) =>
  Effect.gen(function*() {
    const repo = yield* SuggestionsRepo
    const [vocabulary, records, rollups, totals] = yield* Effect.all([
      repo.vocabulary(projectId),
      repo.suggestions(projectId),
      repo.rollups(projectId, filters),
      repo.totals(projectId, filters)
    ])
    const categoryWords = categoryWordsOf([...vocabulary.prompts.values()])
    const decidedKeys = new Set(records.filter((r) => DECIDED.includes(r.status)).map((r) => r.key))
    // The names tracked now are no suggestion, unless a decision made them tracked (then the row stays, decided).
    const trackedKeys = new Set(
      vocabulary.brands.flatMap((b) => [b.name, ...b.aliases].map((n) => keyOf(n, categoryWords))).filter((k) => !decidedKeys.has(k))
    )
    const candidates = windowCandidates(rollups, { trackedKeys, categoryWords })
    return { records, candidates, totals, byKey: new Map(records.map((r) => [r.key, r])) }
  })

/** The lower bound of each candidate's rate over every stored answer (the reopen rule's measure). */
const lifetimeLows = (projectId: number) =>
  Effect.map(windowOf(projectId, {}), ({ candidates, totals }) =>
    new Map(candidates.evidence.map((e) => [e.key, scoreCandidate(e, totals).rate_ci.low])))

const viewOf = (
  record: SuggestionRecord,
  evidence: CandidateEvidence,
  totals: { readonly responses: number; readonly withCompetitor: number },
  status: SuggestionStatus,
  examples: ReadonlyArray<SuggestionExample>
): SuggestionView => {
  const scored = scoreCandidate(evidence, totals, defaultGate)
  return {
    id: record.id,
    key: record.key,
    name: evidence.name,
    status,
    variants: evidence.variants,
    domains: evidence.domains,
    answers_count: evidence.answers,
    responses_count: totals.responses,
    rate: scored.rate,
    rate_ci: scored.rate_ci,
    prompts_count: evidence.prompts.length,
    platforms: evidence.platforms,
    list_share: scored.list_share,
    lift: scored.lift,
    average_order: scored.average_order,
    passes_gate: scored.passes,
    gate_failures: scored.failed,
    why: scored.why,
    examples,
    first_seen_on: evidence.first_seen_on === "" ? null : evidence.first_seen_on,
    last_seen_on: evidence.last_seen_on === "" ? null : evidence.last_seen_on,
    brand_id: record.brand_id,
    backfill: record.backfill_status === null ? null : { status: record.backfill_status, backfilled_responses: record.backfilled_responses }
  }
}

/** The examples of a candidate and of the variants folded into it, the latest three. */
const examplesFor = (projectId: number, key: string, variantOf: ReadonlyMap<string, string>) =>
  Effect.gen(function*() {
    const keys = [key, ...[...variantOf].filter(([, to]) => to === key).map(([from]) => from)]
    const stored = yield* (yield* SuggestionsRepo).examples(projectId, keys)
    const seen = new Set<number>()
    return [...stored].sort(newestFirst).filter((e) => !seen.has(e.response_id) && seen.add(e.response_id)).slice(0, 3).map((e) => ({
      response_id: e.response_id,
      platform: e.platform,
      day: e.day,
      snippet: e.snippet,
      highlight: { start: e.highlight_start, end: e.highlight_end },
      offset: e.offset
    }))
  })

/**
 * The suggestions of a window with this status, best first: open and dismissed ones only when they pass
 * the gate (unless `gated` is false), ranked by the lower bound of `rate_ci`, then answers, then key;
 * decided ones (accepted, merged, ignored) whenever the window names them, in the same order.
 */
export const listSuggestions = (projectId: number, filters: ResponseFilters, status: SuggestionStatus, gated = true) =>
  Effect.gen(function*() {
    const { byKey, candidates, records, totals } = yield* windowOf(projectId, filters)
    const lows = records.some((r) => r.status === "dismissed") ? yield* lifetimeLows(projectId) : new Map<string, number>()
    const rows: Array<{ record: SuggestionRecord; evidence: CandidateEvidence; low: number }> = []
    for (const evidence of candidates.evidence) {
      const record = byKey.get(evidence.key)
      if (record === undefined) continue
      if (shownStatus(record, lows.get(record.key)) !== status) continue
      const scored = scoreCandidate(evidence, totals)
      if (gated && (status === "open" || status === "dismissed") && !scored.passes) continue
      rows.push({ record, evidence, low: scored.rate_ci.low })
    }
    rows.sort((a, b) =>
      b.low - a.low || b.evidence.answers - a.evidence.answers || (a.evidence.key < b.evidence.key ? -1 : a.evidence.key > b.evidence.key ? 1 : 0)
    )
    return { rows, totals, variantOf: candidates.variantOf, lows }
  })

/** A page of `listSuggestions`, with the examples of the rows shown. */
export const suggestionPage = (
  projectId: number,
  filters: ResponseFilters,
  status: SuggestionStatus,
  window: { offset: number; limit: number },
  gated = true
) =>
  Effect.gen(function*() {
    const { rows, totals, variantOf } = yield* listSuggestions(projectId, filters, status, gated)
    const shown = rows.slice(window.offset, window.offset + window.limit)
    const views = yield* Effect.forEach(shown, ({ evidence, record }) =>
      Effect.map(examplesFor(projectId, evidence.key, variantOf), (examples) => viewOf(record, evidence, totals, status, examples)))
    return { rows: views, total: rows.length }
  })

const SUGGESTION = "Brand suggestion"

const findRecord = (projectId: number, id: number) =>
  Effect.flatMap(SuggestionsRepo, (repo) => repo.find(projectId, id)).pipe(
    Effect.flatMap(Option.match({ onNone: () => Effect.fail(new NotFound({ resource: SUGGESTION })), onSome: Effect.succeed }))
  )

/** One suggestion over a window (every stored answer without one), whatever its gate. */
export const getSuggestion = (projectId: number, id: number, filters: ResponseFilters) =>
  Effect.gen(function*() {
    const record = yield* findRecord(projectId, id)
    const { candidates, totals } = yield* windowOf(projectId, filters)
    // A key folded into another in this window shows the other's evidence under its own id.
    const shownKey = candidates.variantOf.get(record.key) ?? record.key
    const evidence = candidates.evidence.find((e) => e.key === shownKey) ?? emptyEvidence(record.key)
    const low = record.status === "dismissed" ? (yield* lifetimeLows(projectId)).get(record.key) : undefined
    const examples = yield* examplesFor(projectId, shownKey, candidates.variantOf)
    return viewOf(record, evidence, totals, shownStatus(record, low), examples)
  })

/** A decision needs an undecided suggestion (open or dismissed). */
const undecided = (record: SuggestionRecord) =>
  DECIDED.includes(record.status)
    ? ValidationError.field("status", `The suggestion is already ${record.status}.`)
    : Effect.succeed(record)

/** The candidate's evidence over every stored answer: the defaults of the brand it becomes. */
const lifetimeEvidence = (projectId: number, record: SuggestionRecord) =>
  Effect.map(windowOf(projectId, {}), ({ candidates }) => {
    const shownKey = candidates.variantOf.get(record.key) ?? record.key
    const folded = [...candidates.variantOf].filter(([, to]) => to === shownKey).map(([from]) => from)
    return { evidence: candidates.evidence.find((e) => e.key === shownKey) ?? emptyEvidence(record.key), folded }
  })

export const dismiss = (projectId: number, id: number) =>
  Effect.gen(function*() {
    const record = yield* Effect.flatMap(findRecord(projectId, id), undecided)
    const low = (yield* lifetimeLows(projectId)).get(record.key) ?? 0
    yield* (yield* SuggestionsRepo).decide(projectId, record.id, { status: "dismissed", dismissed_low: low })
    return yield* getSuggestion(projectId, id, {})
  })

/** Distinct spellings, case-insensitively, without `name`. */
const aliasesOf = (name: string, spellings: ReadonlyArray<string>, limit = 50) => {
  const seen = new Set([name.toLowerCase()])
  return spellings.filter((s) => !seen.has(s.toLowerCase()) && seen.add(s.toLowerCase())).slice(0, limit)
}

export interface BrandChoice {
  readonly name?: string | undefined
  readonly aliases?: ReadonlyArray<string> | undefined
  readonly domains?: ReadonlyArray<string> | undefined
  readonly classification?: Classification | undefined
}

const BRAND_LIMIT = ValidationError.field("brands", "The project already has the most brands it may have.")

/**
 * A brand made of the suggestion (the most used spelling, the other spellings as aliases, its domains),
 * each field replaceable by the body.
 */
const createBrand = (projectId: number, record: SuggestionRecord, choice: BrandChoice, classification: Classification) =>
  Effect.gen(function*() {
    const { evidence } = yield* lifetimeEvidence(projectId, record)
    const name = choice.name ?? evidence.name
    return yield* (yield* BrandsRepo).create(projectId, {
      name,
      aliases: choice.aliases ?? aliasesOf(name, evidence.variants.map((v) => v.name)),
      domains: choice.domains ?? evidence.domains.map((d) => d.domain).slice(0, 50),
      classification: choice.classification ?? classification,
      segment_ids: []
    }).pipe(Effect.catchTag("BrandLimitReached", (_: BrandLimitReached) => BRAND_LIMIT))
  })

/**
 * The project's stored answers detected again with its brands now, `BACKFILL_CHUNK` at a time (each chunk
 * one transaction, the fiber yielding between chunks), the suggestion's `backfilled_responses` moving as
 * it goes: the answers in which the brand is found.
 */
const backfill = (projectId: number, suggestionId: number, brandId: number) =>
  Effect.gen(function*() {
    const responses = yield* ResponsesRepo
    const analyzer = yield* Analyzer
    const repo = yield* SuggestionsRepo
    const brands = yield* responses.brandsForDetection(projectId)
    let afterId = 0
    let found = 0
    while (true) {
      const batch = yield* responses.forReanalysis(projectId, afterId, BACKFILL_CHUNK)
      if (batch.length === 0) break
      const detected = yield* Effect.forEach(batch, (r) =>
        Effect.map(analyzer.redetect(r.text, brands, r.citedDomains), (mentions) => ({ responseId: r.id, mentions })))
      yield* responses.replaceMentions(projectId, detected)
      found += detected.filter((d) => d.mentions.some((m) => m.brand_id === brandId)).length
      yield* repo.decide(projectId, suggestionId, { backfilled_responses: found })
      afterId = batch[batch.length - 1]!.id
      if (batch.length < BACKFILL_CHUNK) break
      yield* Effect.yieldNow()
    }
    yield* repo.decide(projectId, suggestionId, { backfill_status: "done", backfilled_responses: found })
  }).pipe(
    Effect.catchAllCause((cause) => Effect.logError("brand suggestions: backfill stopped", cause)),
    Effect.withSpan("Suggestions.backfill", { attributes: { "project.id": projectId, "suggestion.id": suggestionId } })
  )

/**
 * Runs `decided` on the suggestion once it is taken for `status` (so that two requests never both decide
 * it: the second is told it is decided); if `decided` fails, the suggestion is given back as it was.
 */
const deciding = <A, E, R>(
  projectId: number,
  record: SuggestionRecord,
  status: SuggestionStatus,
  decided: Effect.Effect<A, E, R>
) =>
  Effect.gen(function*() {
    const repo = yield* SuggestionsRepo
    const claimed = yield* repo.claim(projectId, record.id, status)
    if (Option.isNone(claimed)) return yield* ValidationError.field("status", "The suggestion is already decided.")
    return yield* decided.pipe(
      Effect.onError(() => Effect.asVoid(repo.decide(projectId, record.id, { status: record.status, dismissed_low: record.dismissed_low })))
    )
  })

const startBackfill = (projectId: number, record: SuggestionRecord, status: "accepted" | "merged", brand: StoredBrand) =>
  Effect.gen(function*() {
    const decided = yield* (yield* SuggestionsRepo).decide(projectId, record.id, {
      status,
      brand_id: brand.id,
      backfill_status: "running",
      backfilled_responses: 0
    })
    yield* Effect.forkDaemon(backfill(projectId, record.id, brand.id))
    return decided
  })

export const accept = (projectId: number, id: number, choice: BrandChoice) =>
  Effect.gen(function*() {
    const record = yield* Effect.flatMap(findRecord(projectId, id), undecided)
    return yield* deciding(projectId, record, "accepted", Effect.gen(function*() {
      const brand = yield* createBrand(projectId, record, choice, "competitor")
      yield* startBackfill(projectId, record, "accepted", brand)
      return { brand, backfill: { status: "running" as BackfillStatus, backfilled_responses: 0 } }
    }))
  })

export const ignore = (projectId: number, id: number) =>
  Effect.gen(function*() {
    const record = yield* Effect.flatMap(findRecord(projectId, id), undecided)
    return yield* deciding(projectId, record, "ignored", Effect.gen(function*() {
      const brand = yield* createBrand(projectId, record, {}, "ignored")
      yield* (yield* SuggestionsRepo).decide(projectId, record.id, { status: "ignored", brand_id: brand.id })
      return { brand, backfill: null }
    }))
  })

export const merge = (projectId: number, id: number, brandId: number) =>
  Effect.gen(function*() {
    const record = yield* Effect.flatMap(findRecord(projectId, id), undecided)
    const brands = yield* BrandsRepo
    const target = yield* brands.get(brandId).pipe(
      Effect.flatMap((b) => (b.project_id === projectId ? Effect.succeed(b) : Effect.fail(new NotFound({ resource: "Brand" })))),
      Effect.catchTag("NotFound", () => ValidationError.field("brand_id", "The selected brand id is invalid."))
    )
    const { evidence } = yield* lifetimeEvidence(projectId, record)
    const aliases = aliasesOf(target.name, [...target.aliases, ...evidence.variants.map((v) => v.name)], 50)
    return yield* deciding(projectId, record, "merged", Effect.gen(function*() {
      const brand = yield* brands.update(target.id, { aliases }).pipe(
        Effect.catchAll(() => ValidationError.field("brand_id", "The selected brand id is invalid."))
      )
      yield* startBackfill(projectId, record, "merged", brand)
      return { brand, backfill: { status: "running" as BackfillStatus, backfilled_responses: 0 } }
    }))
  })

/** The untracked share of a window (docs/metrics.md): mentions that went to open, gated candidates. */
export const untrackedShare = (projectId: number, filters: ResponseFilters) =>
  Effect.gen(function*() {
    const { rows, totals } = yield* listSuggestions(projectId, filters, "open")
    const untracked = rows.reduce((sum, r) => sum + r.evidence.answers, 0)
    const total = untracked + totals.trackedMentions
    return {
      responses_count: totals.responses,
      candidates_count: rows.length,
      untracked_mentions: untracked,
      tracked_mentions: totals.trackedMentions,
      total_mentions: total,
      share: percentage(untracked, total),
      share_ci: wilson(untracked, total)
    }
  })
