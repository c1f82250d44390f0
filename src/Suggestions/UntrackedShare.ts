/**
 * The untracked share (docs/suggestions.md): of all the brand mentions in a window, tracked brands' and
 * open candidates', the share that went to open candidates, with its counts and Wilson 95% interval, so
 * that a page can say "untracked brands took 23% [19–27%] of the brands named". A mention is one brand
 * in one answer, as in brand analytics.
 */
import { type ConfidenceInterval, percentage, wilson } from "../Analytics/Statistics.ts"
import type { AnswerExtraction } from "./Extraction.ts"

export interface UntrackedShare {
  /** Mentions of open candidates. */
  readonly untracked_mentions: number
  /** Mentions of tracked brands (not ignored). */
  readonly tracked_mentions: number
  /** untracked / (tracked + untracked), a percentage rounded to 2 places; null without any mention. */
  readonly share: number | null
  readonly share_ci: ConfidenceInterval | null
}

/**
 * The untracked share over some answers' extractions; only the candidates `isOpen` accepts count
 * (the gated, neither dismissed nor accepted ones).
 */
export const untrackedShare = (answers: ReadonlyArray<AnswerExtraction>, isOpen: (key: string) => boolean): UntrackedShare => {
  let untracked = 0
  let tracked = 0
  for (const answer of answers) {
    tracked += answer.tracked.length
    for (const candidate of answer.candidates) if (isOpen(candidate.key)) untracked++
  }
  const total = tracked + untracked
  return {
    untracked_mentions: untracked,
    tracked_mentions: tracked,
    share: percentage(untracked, total),
    share_ci: wilson(untracked, total)
  }
}
