import { expect, layer } from "@effect/vitest"
import { Effect, Either, Layer, TestClock } from "effect"
import { BrandsRepo } from "../../../src/Brands/Repo.ts"
import { platforms } from "../../../src/Domain/Platform.ts"
import { MonitorsRepo } from "../../../src/Monitors/Repo.ts"
import { OrganizationsRepo } from "../../../src/Organizations/Repo.ts"
import { ProjectsRepo } from "../../../src/Projects/Repo.ts"
import { PromptsRepo } from "../../../src/Prompts/Repo.ts"
import * as Repositories from "../../../src/Repositories.ts"
import { Analyzer } from "../../../src/Responses/Analyzer.ts"
import { Ingestion } from "../../../src/Responses/Ingestion.ts"
import { rebuild } from "../../../src/Suggestions/Mining.ts"
import { record } from "../../../src/Suggestions/Recording.ts"
import { SuggestionsRepo } from "../../../src/Suggestions/Repo.ts"
import { migratedSql } from "../../support/Databases.ts"
import { corpusProjects } from "../../support/SuggestionCorpus.ts"
import { sqlBackend } from "../../support/TestServer.ts"

/**
 * Storage of brand suggestions (docs/suggestions.md, "Storage"), on the in-memory reference and on SQL:
 * answers ingested one at a time record the rollups and examples that recording all the answers at
 * once gives (an independent computation), and `candidates rebuild` gives the same rows again.
 */
const implementations = [
  ["memory", Repositories.layerMemory],
  [sqlBackend, Repositories.layerSql.pipe(Layer.provideMerge(migratedSql)) as Layer.Layer<Layer.Layer.Success<typeof Repositories.layerSql>, unknown>]
] as const

/** A project holding one corpus project's brands and prompts; its answers ingested one by one. */
const seed = (corpusIndex: number) =>
  Effect.gen(function*() {
    // The test clock starts in 1970: now, so that the answers are not in the future.
    yield* TestClock.setTime(Date.now())
    const corpus = corpusProjects[corpusIndex]!
    const organization = yield* (yield* OrganizationsRepo).create("Acme")
    const project = yield* (yield* ProjectsRepo).create(organization.id, { name: corpus.id, domain: null })
    const monitor = yield* (yield* MonitorsRepo).create(project.id, { name: "M", country: "US", platforms: [...platforms], schedule: "weekly", active: false })
    const promptIds = new Map<string, number>()
    for (const [id, text] of Object.entries(corpus.prompts)) {
      promptIds.set(id, (yield* (yield* PromptsRepo).create(project.id, { monitor_id: monitor.id, text, tag_ids: [] })).id)
    }
    for (const brand of corpus.tracked) {
      yield* (yield* BrandsRepo).create(project.id, {
        name: brand.name,
        aliases: [...brand.aliases],
        domains: [...brand.domains],
        classification: brand.classification,
        segment_ids: []
      })
    }
    const ingestion = yield* Ingestion
    for (const answer of corpus.answers) {
      yield* ingestion.ingest(project.id, {
        prompt_id: promptIds.get(String(answer.prompt))!,
        platform: answer.platform,
        text: answer.text,
        citations: answer.citations ?? undefined,
        collected_at: new Date(`${answer.day}T12:00:00.000Z`)
      })
    }
    return project.id
  })

for (const [name, implementation] of implementations) {
  const layers = Ingestion.layer.pipe(Layer.provideMerge(implementation), Layer.provideMerge(Analyzer.inProcess))
  layer(layers, { timeout: 120_000 })(`brand suggestion storage (${name})`, (it) => {
    it.effect("the incremental rollups equal a recording of every answer at once, and the rebuild gives them again", () =>
      Effect.gen(function*() {
        const projectId = yield* seed(0)
        const repo = yield* SuggestionsRepo
        const incremental = yield* repo.rollups(projectId, {})
        const incrementalExamples = yield* repo.examples(projectId, [...new Set(incremental.map((r) => r.key))])
        expect(incremental.length).toBeGreaterThan(20)
        expect(incrementalExamples.length).toBeGreaterThan(20)

        const answers = yield* repo.answers(projectId, 0, 1000)
        expect(answers).toHaveLength(corpusProjects[0]!.answers.length)
        const all = record(answers, yield* repo.vocabulary(projectId))
        expect(incremental).toEqual(all.rollups)
        expect([...incrementalExamples].sort(byKeyThenId)).toEqual([...all.examples].sort(byKeyThenId))

        const suggestionsBefore = yield* repo.suggestions(projectId)
        const totals = yield* rebuild(projectId, { batchSize: 5 })
        expect(totals.responses).toBe(answers.length)
        expect(yield* repo.rollups(projectId, {})).toEqual(incremental)
        const rebuiltExamples = yield* repo.examples(projectId, [...new Set(incremental.map((r) => r.key))])
        expect([...rebuiltExamples].sort(byKeyThenId)).toEqual([...incrementalExamples].sort(byKeyThenId))
        // Decisions (and ids) stay.
        expect(yield* repo.suggestions(projectId)).toEqual(suggestionsBefore)
        expect(new Set(suggestionsBefore.map((s) => s.key))).toEqual(new Set(incremental.map((r) => r.key)))
      }))

    it.effect("filters: the window's days, platforms and countries", () =>
      Effect.gen(function*() {
        const projectId = yield* seed(1)
        const repo = yield* SuggestionsRepo
        const all = yield* repo.rollups(projectId, {})
        const some = yield* repo.rollups(projectId, { range: { start: "2026-11-05", end: "2026-11-08" }, platforms: ["chatgpt", "gemini"] })
        expect(some).toEqual(all.filter((r) => r.day >= "2026-11-05" && r.day <= "2026-11-08" && ["chatgpt", "gemini"].includes(r.platform)))
        expect(some.length).toBeGreaterThan(0)
        expect(yield* repo.rollups(projectId, { countries: ["FR"] })).toEqual([])
        const totals = yield* repo.totals(projectId, {})
        expect(totals.responses).toBe(corpusProjects[1]!.answers.length)
        expect(Either.right(totals.withCompetitor <= totals.responses)).toEqual(Either.right(true))
      }))
  })
}

const byKeyThenId = (a: { key: string; response_id: number }, b: { key: string; response_id: number }) =>
  (a.key < b.key ? -1 : a.key > b.key ? 1 : a.response_id - b.response_id)
