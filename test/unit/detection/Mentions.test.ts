import { describe, expect, it } from "@effect/vitest"
import { FastCheck } from "effect"
import { type BrandToDetect, detectMentions, maskForSentiment } from "../../../src/Detection/Mentions.js"
import { sentimentValue, toSentimentScore } from "../../../src/Detection/Sentiment.js"

const brand = (id: number, name: string, extra: Partial<BrandToDetect> = {}): BrandToDetect => ({
  id,
  name,
  aliases: [],
  domains: [],
  classification: "competitor",
  ...extra
})

/** brand ids in position order */
const ranking = (text: string, brands: ReadonlyArray<BrandToDetect>, cited?: ReadonlyArray<string>) =>
  detectMentions(text, brands, cited).map((m) => m.brand_id)

describe("detectMentions: which brands", () => {
  it("finds names, aliases and domains, whole words only", () => {
    const brands = [
      brand(1, "Acme"),
      brand(2, "Globex", { aliases: ["Globex Corp", "GBX"] }),
      brand(3, "Initech", { domains: ["initech.io"] }),
      brand(4, "Hooli")
    ]
    expect(ranking("We compared ACME, gbx and initech.io; Hooliganism is off-topic.", brands)).toEqual([1, 2, 3])
  })

  it("does not match inside longer words", () => {
    expect(ranking("Acmeville and SuperAcme sell acmes", [brand(1, "Acme")])).toEqual([])
  })

  it("matches possessives and punctuation around names", () => {
    expect(ranking("acme's plan", [brand(1, "Acme")])).toEqual([1])
    expect(ranking("(ACME).", [brand(1, "Acme")])).toEqual([1])
  })

  it("matches a domain, a www. host, a path and a subdomain, not a longer domain", () => {
    const brands = [brand(1, "Acme Corporation", { domains: ["acme.com"] })]
    expect(ranking("Go to acme.com", brands)).toEqual([1])
    expect(ranking("Go to WWW.ACME.COM/pricing", brands)).toEqual([1])
    expect(ranking("Go to https://blog.acme.com/post", brands)).toEqual([1])
    expect(ranking("Go to notacme.com or acme.com.evil.io or acme.community", brands)).toEqual([])
  })

  it("accepts brand domains written as URLs or with www.", () => {
    expect(ranking("see acme.com", [brand(1, "X1", { domains: ["https://www.acme.com/"] })])).toEqual([1])
  })

  it("ignores blank names, aliases and domains, and dotless domains", () => {
    const brands = [brand(1, "", { aliases: ["", "  "], domains: ["", "acme"] }), brand(2, "  ", { aliases: ["Beta"] })]
    expect(ranking("acme and beta and the rest", brands)).toEqual([2])
  })

  it("gives ignored brands no mention", () => {
    const brands = [
      brand(1, "Acme", { classification: "ignored", domains: ["acme.com"] }),
      brand(2, "Globex", { classification: "other" })
    ]
    expect(ranking("Acme (acme.com) and Globex", brands, ["acme.com"])).toEqual([2])
  })

  it("is Unicode-aware and compares in NFC", () => {
    const brands = [brand(1, "Société Générale"), brand(2, "Müller")]
    expect(ranking("la SOCIÉTÉ GÉNÉRALE et müller", brands)).toEqual([1, 2])
    // Decomposed accents in the text match the precomposed name, and the reverse.
    expect(ranking("la socie\u0301te\u0301 ge\u0301ne\u0301rale", brands)).toEqual([1])
    expect(ranking("Müller", [brand(3, "Mu\u0308ller")])).toEqual([3])
    expect(ranking("Müllerei", brands)).toEqual([])
  })

  it("finds CJK names in CJK text", () => {
    const brands = [brand(1, "阿里云"), brand(2, "腾讯云"), brand(3, "Acme")]
    expect(ranking("我推荐腾讯云和阿里云，也可以用Acme。", brands)).toEqual([2, 1, 3])
  })

  it("returns nothing for an empty text or no brand", () => {
    expect(detectMentions("", [brand(1, "Acme")])).toEqual([])
    expect(detectMentions("Acme", [])).toEqual([])
  })
})

describe("detectMentions: positions", () => {
  it("ranks by first occurrence, not by count or id", () => {
    const brands = [brand(1, "Acme"), brand(2, "Globex"), brand(3, "Initech")]
    expect(detectMentions("Initech, then Globex, then Acme and Acme and Acme.", brands)).toMatchObject([
      { brand_id: 3, position: 1, first_index: 0 },
      { brand_id: 2, position: 2, first_index: 14 },
      { brand_id: 1, position: 3, first_index: 27 }
    ])
  })

  it("uses the earliest of name, alias and domain", () => {
    const brands = [brand(1, "Acme", { aliases: ["ACM"], domains: ["acme.io"] }), brand(2, "Globex")]
    expect(ranking("Globex beats acme.io", brands)).toEqual([2, 1])
    expect(ranking("acm.. Globex beats Acme", brands)).toEqual([1, 2])
  })

  it("puts the longer match first at the same offset, then the lower id", () => {
    const brands = [brand(1, "Acme"), brand(2, "Acme Cloud")]
    expect(detectMentions("Acme Cloud is new", brands)).toMatchObject([
      { brand_id: 2, position: 1, first_index: 0 },
      { brand_id: 1, position: 2, first_index: 0 }
    ])
    const twins = [brand(9, "Acme"), brand(4, "ACME")]
    expect(ranking("acme", twins)).toEqual([4, 9])
  })

  it("ranks brands found only through citations after every text match, in citation order", () => {
    const brands = [
      brand(1, "Acme", { domains: ["acme.com"] }),
      brand(2, "Globex", { domains: ["globex.com"] }),
      brand(3, "Initech", { domains: ["initech.com"] }),
      brand(4, "Hooli", { domains: ["hooli.xyz"] })
    ]
    const text = "Initech is fine."
    const mentions = detectMentions(text, brands, ["other.org", "www.globex.com", "docs.acme.com", "globex.com"])
    expect(mentions).toEqual([
      { brand_id: 3, position: 1, sentiment_score: expect.any(Number), first_index: 0 },
      { brand_id: 2, position: 2, sentiment_score: 50, first_index: text.length + 1 },
      { brand_id: 1, position: 3, sentiment_score: 50, first_index: text.length + 2 }
    ])
  })

  it("does not treat a parent cited domain as the brand's subdomain", () => {
    const brands = [brand(1, "Acme Blog", { domains: ["blog.acme.com"] })]
    expect(ranking("nothing here", brands, ["acme.com"])).toEqual([])
    expect(ranking("nothing here", brands, ["blog.acme.com"])).toEqual([1])
    expect(ranking("nothing here", brands, ["notacme.com", "acme.com.evil.io"])).toEqual([])
  })

  it("positions are 1..n without gaps and first indexes never decrease (property)", () => {
    const names = ["Acme", "Acme Cloud", "Globex", "Initech", "阿里云", "C++", "Hooli"]
    const brands = names.map((name, i) =>
      brand(i + 1, name, {
        classification: i === 6 ? "ignored" : i % 2 === 0 ? "competitor" : "other",
        domains: [`${name.toLowerCase().replace(/[^a-z]/g, "")}${i}.com`]
      })
    )
    const piece = FastCheck.oneof(
      FastCheck.constantFrom(...names, "acme0.com", "blog.globex2.com", " ", ". ", "great", "awful", "x", "\n"),
      FastCheck.string({ maxLength: 5 })
    )
    FastCheck.assert(
      FastCheck.property(
        FastCheck.array(piece, { maxLength: 30 }),
        FastCheck.array(FastCheck.constantFrom("acme0.com", "initech3.com", "x.org", "hooli6.com"), { maxLength: 4 }),
        (pieces, cited) => {
          const mentions = detectMentions(pieces.join(""), brands, cited)
          expect(mentions.map((m) => m.position)).toEqual(mentions.map((_, i) => i + 1))
          expect(new Set(mentions.map((m) => m.brand_id)).size).toBe(mentions.length)
          expect(mentions.some((m) => m.brand_id === 7)).toBe(false)
          for (let i = 1; i < mentions.length; i++) {
            expect(mentions[i]!.first_index).toBeGreaterThanOrEqual(mentions[i - 1]!.first_index)
          }
          for (const m of mentions) {
            expect(Number.isInteger(m.sentiment_score)).toBe(true)
            expect(m.sentiment_score).toBeGreaterThanOrEqual(0)
            expect(m.sentiment_score).toBeLessThanOrEqual(100)
          }
        }
      ),
      { numRuns: 300 }
    )
  })
})

describe("detectMentions: sentiment", () => {
  const brands = [brand(1, "Acme"), brand(2, "Globex"), brand(3, "Initech")]
  const score = (text: string, id: number, bs: ReadonlyArray<BrandToDetect> = brands) =>
    detectMentions(text, bs).find((m) => m.brand_id === id)?.sentiment_score

  it("scores the sentence around each brand", () => {
    const text = "Acme is excellent and reliable. Globex is terrible and slow. Initech was founded in 1999."
    expect(score(text, 1)).toBeGreaterThan(70)
    expect(score(text, 2)).toBeLessThan(30)
    expect(score(text, 3)).toBe(50)
  })

  it("averages over the distinct sentences mentioning the brand", () => {
    const good = "Acme is excellent."
    const bad = "Acme is awful."
    const both = score(`${good} ${bad}`, 1)!
    expect(both).toBeGreaterThan(score(bad, 1)!)
    expect(both).toBeLessThan(score(good, 1)!)
    // Two mentions in one sentence count that sentence once: (v1 + v2) / 2, not (2 v1 + v2) / 3.
    const once = toSentimentScore((sentimentValue("Xxxx and Xxxx are excellent. ") + sentimentValue("Xxxx is awful.")) / 2)
    expect(score("Acme and Acme are excellent. Acme is awful.", 1)).toBe(once)
  })

  it("splits list items into sentences", () => {
    const text = "Options:\n- Acme: excellent support\n- Globex: awful support\n"
    expect(score(text, 1)).toBeGreaterThan(50)
    expect(score(text, 2)).toBeLessThan(50)
  })

  it("does not split sentences inside URLs or brand names", () => {
    const yahoo = [brand(1, "Yahoo!"), brand(2, "Acme")]
    expect(score("Yahoo! is an awful search engine.", 1, yahoo)).toBeLessThan(50)
    expect(score("Acme (https://acme.com/a.b?x=1!y) is an awful tool.", 2, yahoo)).toBeLessThan(50)
  })

  it("gives brand names and URLs no sentiment of their own", () => {
    const bestBuy = [brand(1, "Best Buy"), brand(2, "Great Deals", { domains: ["superb.com"] })]
    expect(score("Best Buy sells TVs.", 1, bestBuy)).toBe(50)
    expect(score("Great Deals (superb.com) sells TVs, see https://superb.com/love.", 2, bestBuy)).toBe(50)
  })

  it("handles negation", () => {
    expect(score("Acme is not good.", 1)).toBeLessThan(50)
    expect(score("Acme isn’t bad.", 1)).toBeGreaterThan(50)
  })

  it("scores brands found through citations only as neutral", () => {
    expect(detectMentions("Awful, terrible.", [brand(1, "Acme", { domains: ["acme.com"] })], ["acme.com"])).toEqual([
      { brand_id: 1, position: 1, sentiment_score: 50, first_index: 16 }
    ])
  })
})

describe("maskForSentiment", () => {
  it("keeps the length, masks occurrences as one token with case kept, and URLs with spaces", () => {
    const text = "Best Buy: see https://b.com/x. ok"
    const masked = maskForSentiment(text, [{ start: 0, end: 8 }])
    expect(masked).toBe("XxxxxXxx: see                . ok")
    expect(masked.length).toBe(text.length)
  })
})
