/**
 * The labelled corpus of answers (test/unit/detection/refusal-corpus.json) and the measures of
 * `answerStateOfText` over it: precision and recall of each state that is not `answered`, and of the two
 * together ("not answered": what a user filters out or counts as a refusal rate).
 */
import { type AnswerState, answerStateOfText } from "../../src/Detection/Refusals.ts"
import corpus from "../unit/detection/refusal-corpus.json" with { type: "json" }

export interface CorpusCase {
  readonly id: string
  readonly split: "tuning" | "holdout"
  readonly batch: number
  readonly lang: string
  readonly label: AnswerState
  readonly text: string
}

export const corpusCases: ReadonlyArray<CorpusCase> = corpus.cases as ReadonlyArray<CorpusCase>

export interface PrecisionRecall {
  /** Cases the rules put in the class. */
  readonly predicted: number
  /** Cases labelled with the class. */
  readonly actual: number
  /** Cases in both. */
  readonly correct: number
  /** correct / predicted (1 when nothing was predicted). */
  readonly precision: number
  /** correct / actual (1 when nothing is labelled so). */
  readonly recall: number
}

export interface Evaluation {
  readonly cases: number
  readonly accuracy: number
  readonly refused: PrecisionRecall
  readonly empty: PrecisionRecall
  /** `refused` and `empty` together against `answered`. */
  readonly notAnswered: PrecisionRecall
  readonly misses: ReadonlyArray<CorpusCase & { readonly predicted: AnswerState }>
}

const measure = (pairs: ReadonlyArray<{ label: AnswerState; predicted: AnswerState }>, inClass: (s: AnswerState) => boolean): PrecisionRecall => {
  const predicted = pairs.filter((p) => inClass(p.predicted)).length
  const actual = pairs.filter((p) => inClass(p.label)).length
  const correct = pairs.filter((p) => inClass(p.predicted) && inClass(p.label)).length
  return {
    predicted,
    actual,
    correct,
    precision: predicted === 0 ? 1 : correct / predicted,
    recall: actual === 0 ? 1 : correct / actual
  }
}

export const evaluate = (
  cases: ReadonlyArray<CorpusCase>,
  classify: (text: string) => AnswerState = answerStateOfText
): Evaluation => {
  const scored = cases.map((c) => ({ ...c, predicted: classify(c.text) }))
  return {
    cases: scored.length,
    accuracy: scored.length === 0 ? 1 : scored.filter((c) => c.predicted === c.label).length / scored.length,
    refused: measure(scored, (s) => s === "refused"),
    empty: measure(scored, (s) => s === "empty"),
    notAnswered: measure(scored, (s) => s !== "answered"),
    misses: scored.filter((c) => c.predicted !== c.label)
  }
}
