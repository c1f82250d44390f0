/**
 * Which candidates are shown, in which order, and why (docs/suggestions.md, "Gate and rank"). Every number
 * is a count or a ratio of counts the row carries, with the same Wilson interval as brand analytics, so a
 * user can redo the ranking by hand.
 */
import { type ConfidenceInterval, mean, percentage, wilson } from "../Analytics/Statistics.ts"
import type { CandidateEvidence } from "./Evidence.ts"

/** The gate: at least 3 answers in 2 prompts, and 2 platforms or a list share of at least one half. */
export interface Gate {
  readonly minAnswers: number
  readonly minPrompts: number
  readonly minPlatforms: number
  readonly minListShare: number
}

export const defaultGate: Gate = { minAnswers: 3, minPrompts: 2, minPlatforms: 2, minListShare: 0.5 }

/** The answers of the window the candidates are counted against. */
export interface WindowTotals {
  /** Answers in the window (the denominator of `rate`). */
  readonly responses: number
  /** Answers in the window naming at least one tracked competitor. */
  readonly withCompetitor: number
}

export interface RankedCandidate {
  readonly evidence: CandidateEvidence
  /** answers / responses, as a percentage rounded to 2 places (half away from zero, as brand analytics). */
  readonly rate: number
  /** Wilson 95% interval of `rate`, percentages. */
  readonly rate_ci: ConfidenceInterval
  /** in_list / answers, rounded to 2 places. */
  readonly list_share: number
  /**
   * P(candidate | a tracked competitor is named) / P(candidate), rounded to 2 places: above 1, the
   * candidate keeps company with the brands the user already compares against. Null without a denominator.
   */
  readonly lift: number | null
  /** The mean of its orders among the brands of its answers, rounded to 2 places. */
  readonly average_order: number
  readonly passes: boolean
  /** The gate's checks this candidate fails, in words ("named in 2 answers, 3 needed"). */
  readonly failed: ReadonlyArray<string>
  /** The ranking in words. */
  readonly why: string
}

/** The gate's checks a candidate fails (empty when it passes). */
export const gateFailures = (evidence: CandidateEvidence, gate: Gate = defaultGate): Array<string> => {
  const failures: Array<string> = []
  if (evidence.answers < gate.minAnswers) failures.push(`named in ${evidence.answers} answers, ${gate.minAnswers} needed`)
  if (evidence.prompts.length < gate.minPrompts) failures.push(`in ${evidence.prompts.length} prompts, ${gate.minPrompts} needed`)
  const listShare = evidence.answers === 0 ? 0 : evidence.in_list / evidence.answers
  if (evidence.platforms.length < gate.minPlatforms && listShare < gate.minListShare) {
    failures.push(`on ${evidence.platforms.length} platform and in a list in ${evidence.in_list} of ${evidence.answers} answers: ${gate.minPlatforms} platforms or a list share of ${gate.minListShare} needed`)
  }
  return failures
}

/** A candidate's figures against the window. */
export const scoreCandidate = (evidence: CandidateEvidence, totals: WindowTotals, gate: Gate = defaultGate): RankedCandidate => {
  const rate_ci = wilson(evidence.answers, totals.responses) ?? { low: 0, high: 0 }
  const rate = percentage(evidence.answers, totals.responses) ?? 0
  const lift = totals.withCompetitor === 0 || evidence.answers === 0 || totals.responses === 0
    ? null
    // (w / c) / (a / n) = (w × n) / (c × a), rounded once.
    : mean(evidence.with_competitor * totals.responses, totals.withCompetitor * evidence.answers)
  const failed = gateFailures(evidence, gate)
  return {
    evidence,
    rate,
    rate_ci,
    list_share: mean(evidence.in_list, evidence.answers) ?? 0,
    lift,
    average_order: mean(evidence.order_sum, evidence.answers) ?? 0,
    passes: failed.length === 0,
    failed,
    why: `named in ${evidence.answers} of ${totals.responses} answers (${rate}%, 95% CI ${rate_ci.low}–${rate_ci.high}%), ` +
      `in ${evidence.prompts.length} prompts on ${evidence.platforms.length} platforms, in a list in ${evidence.in_list}`
  }
}

/**
 * The candidates that pass the gate, best first: by the lower bound of `rate_ci` (a rate measured on
 * more answers ranks above an equal one measured on fewer), then by answers, then by key.
 */
export const rankCandidates = (
  evidence: ReadonlyArray<CandidateEvidence>,
  totals: WindowTotals,
  gate: Gate = defaultGate
): Array<RankedCandidate> =>
  evidence
    .map((e) => scoreCandidate(e, totals, gate))
    .filter((c) => c.passes)
    .sort((a, b) =>
      b.rate_ci.low - a.rate_ci.low || b.evidence.answers - a.evidence.answers || (a.evidence.key < b.evidence.key ? -1 : a.evidence.key > b.evidence.key ? 1 : 0)
    )

/**
 * Whether a dismissed suggestion comes back: when the lower bound of its rate has at least doubled since
 * it was dismissed (and is above 0), the evidence has changed enough to ask again.
 */
export const reopensAfterDismissal = (lowWhenDismissed: number, lowNow: number): boolean =>
  lowNow > 0 && lowNow >= 2 * lowWhenDismissed
