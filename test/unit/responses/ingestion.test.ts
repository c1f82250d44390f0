import { describe, expect, layer } from "@effect/vitest"
import { Effect, Either, Layer } from "effect"
import * as Repositories from "../../../src/Repositories.ts"
import { Analyzer } from "../../../src/Responses/Analyzer.ts"
import { Ingestion } from "../../../src/Responses/Ingestion.ts"
import { recordingSpans, spansNamed } from "../../support/Spans.ts"
import { monitorWithPrompts } from "../collector/fixtures.ts"

/**
 * Ingestion's spans (docs/operations.md, "Traces"): each of its methods is a span carrying the ids of
 * what it ingests, and an answer's check and write nest within the ingestion that made them.
 */
const Live = Ingestion.layer.pipe(Layer.provideMerge(Layer.merge(Repositories.layerMemory, Analyzer.inProcess)))

const answer = (promptId: number) => ({
  prompt_id: promptId,
  platform: "chatgpt" as const,
  text: "Acme is the best CRM; Globex is fine. https://review.example/crm"
})

layer(Live)("Ingestion's spans", (it) => {
  it.effect("one answer: ingest, its check and its write, each with the project, the prompt and the platform", () =>
    Effect.gen(function*() {
      const { project, prompts } = yield* monitorWithPrompts({ prompts: 1, platforms: ["chatgpt"] })
      const ingestion = yield* Ingestion
      const { spans, value } = yield* recordingSpans(ingestion.ingest(project.id, answer(prompts[0]!.id)))
      expect(value.prompt_id).toBe(prompts[0]!.id)
      const ids = { "project.id": project.id, "prompt.id": prompts[0]!.id, "platform": "chatgpt", "answers": 1 }
      expect(spansNamed(spans, "Ingestion.ingest")).toEqual([{ name: "Ingestion.ingest", attributes: expect.objectContaining(ids), ancestors: [] }])
      expect(spansNamed(spans, "Ingestion.prepare")).toEqual([
        { name: "Ingestion.prepare", attributes: expect.objectContaining(ids), ancestors: ["Ingestion.ingest"] }
      ])
      expect(spansNamed(spans, "Ingestion.store")).toEqual([
        { name: "Ingestion.store", attributes: expect.objectContaining(ids), ancestors: ["Ingestion.ingest"] }
      ])
      // The repositories' spans within: the lookups in the check, the insert in the write.
      expect(spansNamed(spans, "PromptsRepo.findMany").map((span) => span.ancestors)).toEqual([["Ingestion.prepare", "Ingestion.ingest"]])
      expect(spansNamed(spans, "ResponsesRepo.insertAnalyzed").map((span) => span.ancestors)).toEqual([["Ingestion.store", "Ingestion.ingest"]])
    }))

  it.effect("a batch (the import's): the project and the count, a prompt and a platform only when they are one", () =>
    Effect.gen(function*() {
      const { project, prompts } = yield* monitorWithPrompts({ prompts: 2, platforms: ["chatgpt", "claude"] })
      const ingestion = yield* Ingestion
      const batch = [answer(prompts[0]!.id), { ...answer(prompts[1]!.id), platform: "claude" as const }, answer(prompts[0]!.id)]
      const { spans, value } = yield* recordingSpans(
        Effect.flatMap(ingestion.prepare(project.id, batch), (prepared) => ingestion.store(project.id, prepared.map(Either.getOrThrow)))
      )
      expect(value).toHaveLength(3)
      const [prepare] = spansNamed(spans, "Ingestion.prepare")
      expect(prepare!.attributes).toMatchObject({ "project.id": project.id, "answers": 3 })
      expect(prepare!.attributes).not.toHaveProperty("prompt.id")
      expect(prepare!.attributes).not.toHaveProperty("platform")
      const single = [answer(prompts[0]!.id), answer(prompts[0]!.id)]
      const { spans: again } = yield* recordingSpans(ingestion.prepare(project.id, single))
      expect(spansNamed(again, "Ingestion.prepare")[0]!.attributes).toMatchObject({
        "project.id": project.id,
        "prompt.id": prompts[0]!.id,
        "platform": "chatgpt",
        "answers": 2
      })
    }))

  describe("without a tracer", () => {
    it.effect("ingests all the same (spans cost nothing where nothing reads them)", () =>
      Effect.gen(function*() {
        const { project, prompts } = yield* monitorWithPrompts({ prompts: 1, platforms: ["chatgpt"] })
        const stored = yield* (yield* Ingestion).ingest(project.id, answer(prompts[0]!.id)).pipe(Effect.withTracerEnabled(false))
        expect(stored.status).toBe("analyzed")
      }))
  })
})
