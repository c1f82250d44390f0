import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import {
  comparativeSentiment,
  scoreSentiment,
  sentimentFromComparative,
  toSentimentScore
} from "../../../src/Detection/Sentiment.js"

describe("scoreSentiment", () => {
  it.each([
    "Acme is great.",
    "Acme is an excellent and reliable choice.",
    "I love Acme, it is amazing.",
    "Acme offers robust analytics and excellent support, making it a popular choice."
  ])("clearly positive: %j", (sentence) => {
    expect(scoreSentiment(sentence)).toBeGreaterThanOrEqual(70)
  })

  it.each([
    "Acme is terrible.",
    "Acme is terrible and slow.",
    "Users hate Acme because of its awful, buggy interface.",
    "Acme is a bad choice with poor support."
  ])("clearly negative: %j", (sentence) => {
    expect(scoreSentiment(sentence)).toBeLessThanOrEqual(30)
  })

  it.each(["Acme is a CRM.", "Acme was founded in 2010 in Berlin.", "", "   ", "阿里云是一家公司。"])(
    "neutral: %j",
    (sentence) => {
      expect(scoreSentiment(sentence)).toBe(50)
    }
  )

  it("handles negation (ASCII and typographic apostrophes)", () => {
    expect(scoreSentiment("Acme is not good.")).toBeLessThan(50)
    expect(scoreSentiment("Acme isn't good.")).toBeLessThan(50)
    expect(scoreSentiment("Acme isn’t good.")).toBe(scoreSentiment("Acme isn't good."))
    expect(scoreSentiment("Acme is not bad.")).toBeGreaterThan(50)
  })

  it("is case-insensitive and ignores URLs", () => {
    expect(scoreSentiment("ACME IS GREAT")).toBe(scoreSentiment("acme is great"))
    expect(scoreSentiment("See https://acme.com/best-great-love-tools")).toBe(50)
  })

  it("scores stronger wording further from 50", () => {
    const mild = scoreSentiment("Acme is a good option for small teams that need a simple tool.")
    const strong = scoreSentiment("Acme is a superb, outstanding tool.")
    expect(mild).toBeGreaterThan(50)
    expect(strong).toBeGreaterThan(mild)
  })

  it("always gives an integer 0..100 (property)", () => {
    FastCheck.assert(
      FastCheck.property(FastCheck.string({ unit: "grapheme", maxLength: 200 }), (text) => {
        const score = scoreSentiment(text)
        expect(Number.isInteger(score)).toBe(true)
        expect(score).toBeGreaterThanOrEqual(0)
        expect(score).toBeLessThanOrEqual(100)
      })
    )
    const words = FastCheck.array(FastCheck.constantFrom("good", "bad", "great", "awful", "not", "the", "tool", "is"), {
      maxLength: 30
    })
    FastCheck.assert(
      FastCheck.property(words, (ws) => {
        const score = scoreSentiment(ws.join(" "))
        expect(score).toBeGreaterThanOrEqual(0)
        expect(score).toBeLessThanOrEqual(100)
      })
    )
  })
})

describe("score mapping", () => {
  it("maps 0 to 50, is monotonic, bounded and symmetric", () => {
    expect(sentimentFromComparative(0)).toBe(50)
    expect(toSentimentScore(sentimentFromComparative(100))).toBe(100)
    expect(toSentimentScore(sentimentFromComparative(-100))).toBe(0)
    FastCheck.assert(
      FastCheck.property(
        FastCheck.double({ min: -10, max: 10, noNaN: true }),
        FastCheck.double({ min: -10, max: 10, noNaN: true }),
        (a, b) => {
          const [lo, hi] = a <= b ? [a, b] : [b, a]
          expect(sentimentFromComparative(lo)).toBeLessThanOrEqual(sentimentFromComparative(hi))
          expect(toSentimentScore(sentimentFromComparative(lo))).toBeLessThanOrEqual(
            toSentimentScore(sentimentFromComparative(hi))
          )
          expect(toSentimentScore(sentimentFromComparative(a)) + toSentimentScore(sentimentFromComparative(-a))).toBe(100)
        }
      )
    )
  })

  it.each([
    [50, 50],
    [62.5, 63],
    [37.5, 37],
    [62.4, 62],
    [99.6, 100],
    [0.4, 0],
    [150, 100],
    [-3, 0],
    [Number.NaN, 50]
  ])("toSentimentScore(%d) = %d", (value, expected) => {
    expect(toSentimentScore(value)).toBe(expected)
  })

  it("uses the library's comparative score", () => {
    expect(comparativeSentiment("good")).toBe(3)
    expect(comparativeSentiment("not good")).toBe(-1.5)
  })
})
