/**
 * Refusals and deflections an answer's text shows (docs/detection.md, "Refusals"): whether a platform
 * answered, refused (the model declines), or gave nothing (a deflection such as "I can't browse the
 * web", only apologies, or no text at all). Pure; the phrases are in `RefusalPhrases.ts`.
 *
 * The text is cut into lines, and lines into clauses at sentence punctuation and at contrast words
 * ("but", "aber", "mais", …). Each clause is a refusal, a deflection, a filler (apologies, pointers
 * elsewhere, hedges) or content. A refusal or a deflection only decides the answer when the content
 * around it is thin: fewer than `CONTENT_WORDS` words and fewer than two list items. So "I can't browse
 * the web, but the leading tools are A, B and C" is answered, and "You cannot go wrong with A" has no
 * refusal at all (the phrases are in the first person and name what is declined).
 *
 * Cost: one pass over the text; each clause is tested against four regular expressions of bounded
 * length (see `RefusalPhrases.ts`), so the time is linear in the text. The pass stops as soon as the
 * content suffices, so a real answer costs its first few clauses.
 */
import { type LanguagePhrases, phraseTables } from "./RefusalPhrases.ts"

export const answerStates = ["answered", "refused", "empty"] as const
export type AnswerState = (typeof answerStates)[number]

/** Content words that make an answer whatever refusal or deflection it also contains. */
export const CONTENT_WORDS = 6

/** A phrase matches whole words: no letter or digit may touch either end. */
const combine = (pick: (table: LanguagePhrases) => ReadonlyArray<string>, flags = "u"): RegExp =>
  new RegExp(
    `(?<![\\p{L}\\p{N}])(?:${phraseTables.flatMap(pick).map((source) => `(?:${source})`).join("|")})(?![\\p{L}\\p{N}])`,
    flags
  )

const refusal = combine((t) => t.refusals)
const deflection = combine((t) => t.deflections)
const fillers = combine((t) => t.fillers, "gu")
const exception = combine((t) => t.exceptions)

/** Sentence punctuation, or a contrast word: a new clause starts after either. */
const clauseBreak = new RegExp(
  `[.!?;:。！？…]|(?<![\\p{L}\\p{N}])(?:${phraseTables.flatMap((t) => t.contrasts).join("|")})(?![\\p{L}\\p{N}])`,
  "u"
)

/** A markdown list item or table row: its marker and the line's indent are bounded, so this is cheap. */
const listItem = /^[ \t]{0,12}(?:[-*+•]|\d{1,3}[.)]|\|)[ \t]/u

const word = /[\p{L}\p{N}][\p{L}\p{N}']*/gu

const countWords = (text: string): number => {
  let count = 0
  word.lastIndex = 0
  while (word.exec(text) !== null) count++
  return count
}

/** Lower case, compatibility forms, straight apostrophes, single spaces, no markdown emphasis. */
export const normalizeForPhrases = (line: string): string =>
  line
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[’ʼ‘`´]/gu, "'")
    .replace(/[*_#>~|]/gu, " ")
    .replace(/\s+/gu, " ")
    .trim()

/** Words a filler may leave over and the clause still be a filler ("sorry about that"). */
const FILLER_LEFTOVER = 2

/**
 * - `refusal`, `deflection`: the clause declines or gives nothing.
 * - `filler`: apologies, thanks, pointers elsewhere, and at most `FILLER_LEFTOVER` other words.
 * - `hedged`: content with a filler in it ("unfortunately the free plan ends after 3 users", "it may be
 *   a small company"): content, unless the answer refuses or deflects, when it is taken as padding.
 * - `content`: anything else.
 */
type ClauseKind = "refusal" | "deflection" | "filler" | "hedged" | "content"

const clauseKind = (clause: string): ClauseKind => {
  if (exception.test(clause)) return "content"
  if (deflection.test(clause)) return "deflection"
  if (refusal.test(clause)) return "refusal"
  let hasFiller = false
  const withoutFillers = clause.replace(fillers, () => {
    hasFiller = true
    return " "
  })
  if (!hasFiller) return "content"
  return countWords(withoutFillers) <= FILLER_LEFTOVER ? "filler" : "hedged"
}

/** `answered`, `refused` or `empty`, from the text alone. */
export const answerStateOfText = (text: string): AnswerState => {
  let contentWords = 0
  let hedgedWords = 0
  let contentListItems = 0
  let refused = false
  let deflected = false
  for (const line of text.split(/\r\n|\r|\n/u)) {
    const isListItem = listItem.test(line)
    let lineContent = 0
    for (const clause of normalizeForPhrases(line).split(clauseBreak)) {
      const words = countWords(clause)
      if (words === 0) continue
      const kind = clauseKind(clause)
      if (kind === "refusal") refused = true
      else if (kind === "deflection") deflected = true
      else if (kind === "hedged") hedgedWords += words
      else if (kind === "content") {
        lineContent += words
        contentWords += words
        if (contentWords >= CONTENT_WORDS) return "answered"
      }
    }
    if (isListItem && lineContent > 0 && ++contentListItems >= 2) return "answered"
  }
  if (refused) return "refused"
  if (deflected) return "empty"
  return contentWords + hedgedWords > 0 ? "answered" : "empty"
}
