/**
 * Sentiment of a sentence on the API's 0-100 scale (50 neutral), from the `sentiment`
 * package: the AFINN-165 word list (about 3,400 English words rated -5..+5) with
 * negation ("not good", "isn't great" flip the next word). No runtime dependency and
 * fully deterministic; English only, like the lexicon.
 */
import Sentiment from "sentiment"

const analyzer = new Sentiment()

/**
 * How fast the score leaves 50: `50 + 50 * tanh(STEEPNESS * comparative)`, where
 * comparative is the lexicon sum per token. One "great" (+3) in an 8-word sentence
 * (comparative 0.375) gives 82; "X is terrible and slow." (-0.6) gives 8.
 */
export const STEEPNESS = 2

/** URLs carry no opinion, yet their words ("best-tools", "/great/") are in the lexicon. */
const URL_PATTERN = /\bhttps?:\/\/\S+/giu

/**
 * NFC, and typographic apostrophes as ASCII so that "isn’t good" is negated like
 * "isn't good" (the lexicon and its negators are ASCII).
 */
const prepare = (text: string): string =>
  text.normalize("NFC").replace(/[\u2018\u2019\u02bc]/gu, "'").replace(URL_PATTERN, " ")

/** The library's comparative score: lexicon sum divided by the number of tokens. */
export const comparativeSentiment = (text: string): number => analyzer.analyze(prepare(text)).comparative

/**
 * Maps a comparative score to 0..100: strictly increasing, 0 gives exactly 50, odd
 * around 50 (c and -c are equally far from it) and bounded without clipping.
 */
export const sentimentFromComparative = (comparative: number): number =>
  50 + 50 * Math.tanh(STEEPNESS * comparative)

/**
 * An integer 0..100 for a 0..100 value, rounding the distance from 50 half away from
 * zero so that opposite sentiments get mirror scores (37.5 gives 37, 62.5 gives 63).
 */
export const toSentimentScore = (value: number): number => {
  if (!Number.isFinite(value)) return 50
  const offset = value - 50
  const rounded = 50 + Math.sign(offset) * Math.round(Math.abs(offset))
  return Math.min(100, Math.max(0, rounded))
}

/** The unrounded 0..100 sentiment of a text, for averaging before rounding once. */
export const sentimentValue = (text: string): number => sentimentFromComparative(comparativeSentiment(text))

/** The sentiment score (integer 0..100, 50 neutral) of a sentence. */
export const scoreSentiment = (sentence: string): number => toSentimentScore(sentimentValue(sentence))
