/**
 * The labelled corpus of brand suggestions (test/unit/suggestions/corpus.json) and the measures of the
 * suggestion core over it (docs/suggestions.md, "Measured"):
 *
 * - extraction: per answer, the candidates found (variants resolved over the project's answers) against
 *   the rivals labelled (micro precision and recall over answer × candidate pairs; `ignore` names count
 *   neither way);
 * - gated suggestions: per project, the candidates that pass the gate, each right when it is a labelled
 *   rival of the project; recall over the project's frequent rivals (labelled in at least 3 answers, 2
 *   prompts and 2 platforms: those the gate is meant to let through).
 */
import { citationsFrom } from "../../src/Detection/Citations.ts"
import type { BrandToDetect } from "../../src/Detection/Mentions.ts"
import type { Platform } from "../../src/Domain/Platform.ts"
import { type AnalysedAnswer, evidenceOf, rollUp } from "../../src/Suggestions/Evidence.ts"
import { extractCandidates } from "../../src/Suggestions/Extraction.ts"
import { categoryWordsOf, keyOf } from "../../src/Suggestions/Keys.ts"
import { defaultGate, rankCandidates } from "../../src/Suggestions/Ranking.ts"
import { confirmedKeys, variantKeys, withConfirmedNames, withVariants } from "../../src/Suggestions/Variants.ts"
import corpus from "../unit/suggestions/corpus.json" with { type: "json" }

export interface CorpusAnswer {
  readonly id: string
  readonly prompt: number
  readonly platform: Platform
  readonly day: string
  readonly expected: ReadonlyArray<string>
  readonly ignore: ReadonlyArray<string>
  readonly text: string
  readonly citations: ReadonlyArray<string> | null
}

export interface CorpusProject {
  readonly id: string
  readonly tracked: ReadonlyArray<BrandToDetect>
  readonly prompts: Readonly<Record<string, string>>
  readonly answers: ReadonlyArray<CorpusAnswer>
}

export const corpusProjects = corpus.projects as unknown as ReadonlyArray<CorpusProject>

export interface PrecisionRecall {
  readonly predicted: number
  readonly actual: number
  readonly correct: number
  readonly precision: number
  readonly recall: number
}

const measure = (predicted: number, actual: number, correct: number): PrecisionRecall => ({
  predicted,
  actual,
  correct,
  precision: predicted === 0 ? 1 : correct / predicted,
  recall: actual === 0 ? 1 : correct / actual
})

export interface GatedMeasure {
  /** Candidates that passed the gate. */
  readonly suggested: number
  /** ... that are labelled rivals of their project. */
  readonly right: number
  /** Frequent rivals (labelled in at least 3 answers, 2 prompts and 2 platforms). */
  readonly frequent: number
  /** ... that passed the gate. */
  readonly frequentSuggested: number
  readonly precision: number
  readonly recall: number
}

export interface Miss {
  readonly where: string
  readonly kind: "false positive" | "missed"
  readonly key: string
}

export interface SuggestionEvaluation {
  readonly answers: number
  readonly extraction: PrecisionRecall
  readonly gated: GatedMeasure
  readonly misses: ReadonlyArray<Miss>
  /** The gated suggestions per project, best first. */
  readonly suggestions: Readonly<Record<string, ReadonlyArray<string>>>
}

export const evaluate = (projects: ReadonlyArray<CorpusProject> = corpusProjects): SuggestionEvaluation => {
  let answersCount = 0
  const extraction = { predicted: 0, actual: 0, correct: 0 }
  const gated = { suggested: 0, right: 0, frequent: 0, frequentSuggested: 0 }
  const misses: Array<Miss> = []
  const suggestions: Record<string, ReadonlyArray<string>> = {}
  for (const project of projects) {
    const categoryWords = categoryWordsOf(Object.values(project.prompts))
    const key = (name: string) => keyOf(name, categoryWords)
    const analysed: Array<AnalysedAnswer> = []
    const rivals = new Set<string>()
    const ignored = new Set<string>()
    const labelled = new Map<string, Array<CorpusAnswer>>()
    project.answers.forEach((answer, i) => {
      answersCount++
      const citations = citationsFrom({ citations: answer.citations, text: answer.text }).map((c) => c.url)
      const found = extractCandidates({ text: answer.text, citations }, {
        tracked: project.tracked,
        prompt: project.prompts[String(answer.prompt)]!,
        categoryWords
      })
      analysed.push({ answer_id: i + 1, prompt_id: answer.prompt, platform: answer.platform, day: answer.day, text: answer.text, extraction: found })
    })
    // Variants are resolved over the project's answers, as the service resolves them over a window.
    const confirmed = confirmedKeys(analysed.map((a) => a.extraction))
    analysed.forEach((a, i) => {
      analysed[i] = { ...a, extraction: withConfirmedNames(a.extraction, confirmed) }
    })
    const variants = variantKeys(rollUp(analysed), categoryWords)
    analysed.forEach((a, i) => {
      analysed[i] = { ...a, extraction: withVariants(a.extraction, variants) }
    })
    project.answers.forEach((answer, i) => {
      const found = analysed[i]!.extraction
      const expected = new Set(answer.expected.map(key))
      const ignore = new Set(answer.ignore.map(key))
      const predicted = new Set(found.candidates.map((c) => c.key).filter((k) => !ignore.has(k)))
      for (const k of expected) {
        rivals.add(k)
        labelled.set(k, [...(labelled.get(k) ?? []), answer])
      }
      for (const k of ignore) ignored.add(k)
      extraction.predicted += predicted.size
      extraction.actual += expected.size
      for (const k of predicted) {
        if (expected.has(k)) extraction.correct++
        else misses.push({ where: answer.id, kind: "false positive", key: k })
      }
      for (const k of expected) if (!predicted.has(k)) misses.push({ where: answer.id, kind: "missed", key: k })
    })
    const withCompetitor = analysed.filter((a) => a.extraction.tracked.some((t) => t.classification === "competitor")).length
    const ranked = rankCandidates(evidenceOf(rollUp(analysed)), { responses: analysed.length, withCompetitor })
      .map((r) => r.evidence.key)
      .filter((k) => !ignored.has(k) || rivals.has(k))
    suggestions[project.id] = ranked
    const frequent = [...labelled].filter(([, answers]) =>
      answers.length >= defaultGate.minAnswers &&
      new Set(answers.map((a) => a.prompt)).size >= defaultGate.minPrompts &&
      new Set(answers.map((a) => a.platform)).size >= defaultGate.minPlatforms
    ).map(([k]) => k)
    gated.suggested += ranked.length
    gated.right += ranked.filter((k) => rivals.has(k)).length
    gated.frequent += frequent.length
    gated.frequentSuggested += frequent.filter((k) => ranked.includes(k)).length
    for (const k of ranked) if (!rivals.has(k)) misses.push({ where: `${project.id} (gated)`, kind: "false positive", key: k })
    for (const k of frequent) if (!ranked.includes(k)) misses.push({ where: `${project.id} (gated)`, kind: "missed", key: k })
  }
  return {
    answers: answersCount,
    extraction: measure(extraction.predicted, extraction.actual, extraction.correct),
    // Precision counts every gated candidate; recall only the frequent rivals (a rival named once is not meant to pass).
    gated: {
      ...gated,
      precision: gated.suggested === 0 ? 1 : gated.right / gated.suggested,
      recall: gated.frequent === 0 ? 1 : gated.frequentSuggested / gated.frequent
    },
    misses,
    suggestions
  }
}
