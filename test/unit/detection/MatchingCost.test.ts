import { describe, expect, it } from "vitest"
import { type BrandNames, MAX_AUTOMATON_NODES, matchBrands } from "../../../src/Detection/Matching.ts"
import { type BrandToDetect, detectMentions } from "../../../src/Detection/Mentions.ts"

/**
 * The matcher's cost, counted in its own steps (edges and failure links followed, occurrences visited)
 * rather than timed: it grows with the text's length, whatever the names. The answer of the report that
 * stalled the service (six brands of fifty aliases "a a … a z<b>x<i>" of 255 characters, against the
 * text "a " × 100,000) cost the former matcher one scan of the whole text per alias, each step comparing
 * up to 127 words: 14 s on the server, every other request waiting.
 */

/** The report's alias: "a a … a z<brand>x<alias>", 255 characters. */
const stallingAlias = (brand: number, alias: number): string => {
  const tail = ` z${brand}x${alias}`
  return `${"a ".repeat(127).slice(0, 255 - tail.length)}${tail}`
}

const stallingBrands = (count: number): Array<BrandToDetect> =>
  Array.from({ length: count }, (_, b) => ({
    id: b + 1,
    name: `Brand ${b}`,
    aliases: Array.from({ length: 50 }, (_, i) => stallingAlias(b, i)),
    domains: [],
    classification: "competitor"
  }))

const namesOf = (brands: ReadonlyArray<BrandToDetect>): Array<BrandNames> =>
  brands.map((brand) => ({ names: [brand.name, ...brand.aliases], domains: brand.domains }))

describe("the matcher's steps", () => {
  it("are at most two a character on the answer that stalled the service, whatever its length", () => {
    expect(stallingAlias(5, 49)).toHaveLength(255)
    const brands = namesOf(stallingBrands(6))
    for (const repeats of [1_000, 10_000, 100_000]) {
      const text = "a ".repeat(repeats)
      const { steps } = matchBrands(text, brands)
      expect(steps).toBeGreaterThanOrEqual(text.length)
      expect(steps).toBeLessThanOrEqual(2 * text.length)
    }
  })

  it("do not grow with the number of brands", () => {
    const text = "a ".repeat(20_000)
    // The aliases share their long prefix: 400 brands of 50 aliases of 255 characters fit one automaton.
    const steps = [1, 6, 400].map((count) => matchBrands(text, namesOf(stallingBrands(count))).steps)
    expect(new Set(steps).size).toBe(1)
  })

  it("find nothing in the answer that stalled the service, at once", () => {
    expect(detectMentions("a ".repeat(100_000), stallingBrands(6))).toEqual([])
  })

  it("add one step per name ending at a character, one name per length at most", () => {
    // Nested names ("a", "a a", "a a a", ...) all end at every word: each is a real occurrence, and the
    // text can hold only one name of each length ending at one place.
    const nested = Array.from({ length: 6 }, (_, b) => ({
      names: Array.from({ length: 50 }, (_, i) => "a ".repeat(b * 10 + i + 1).trim()),
      domains: []
    }))
    const lengths = new Set(nested.flatMap((brand) => brand.names.map((name) => name.length))).size
    for (const repeats of [1_000, 10_000]) {
      const text = "a ".repeat(repeats)
      const { steps } = matchBrands(text, nested)
      // Each word ends up to `lengths` names; each whitespace character ends none.
      expect(steps).toBeLessThanOrEqual(2 * text.length + repeats * lengths)
      // The occurrences themselves: word k ends min(k, 100) names of the 100 (one per length).
      const occurrences = Array.from({ length: repeats }, (_, k) => Math.min(k + 1, lengths)).reduce((a, b) => a + b, 0)
      expect(steps).toBeGreaterThanOrEqual(occurrences)
    }
  })

  it("are the same for names that share a brand or not: each distinct name is looked for once", () => {
    const text = "Acme and Globex and acme.com. ".repeat(1_000)
    const one = matchBrands(text, [{ names: ["Acme", "Globex"], domains: ["acme.com"] }])
    const many = matchBrands(text, Array.from({ length: 100 }, () => ({ names: ["Acme", "Globex"], domains: ["acme.com"] })))
    expect(many.steps).toBe(one.steps)
    expect(many.firstOf(99)).toEqual(one.firstOf(0))
  })
})

describe("automata of bounded size", () => {
  it("split names that need more than MAX_AUTOMATON_NODES nodes over several, each read in turn, finding the same", () => {
    // Names of 255 characters that share nothing (each its own first word, which the text holds).
    const first = (i: number) => `w${String(i).padStart(5, "0")}`
    const long = (i: number) => `${first(i)} ${"a ".repeat(123)}xy`
    const count = Math.ceil((2.5 * MAX_AUTOMATON_NODES) / 255)
    const brands: Array<BrandNames> = [
      ...Array.from({ length: count }, (_, i) => ({ names: [long(i)], domains: [] })),
      { names: ["Acme"], domains: ["acme.com"] }
    ]
    const words = Array.from({ length: count }, (_, i) => first(i)).join(" ")
    const text = `Acme first. ${words} ${long(count - 1)}, then acme.com.`
    const matches = matchBrands(text, brands)
    expect(matches.firstOf(count)).toEqual({ start: 0, length: 4 })
    expect(matches.firstOf(count - 1)).toEqual({ start: text.indexOf(long(count - 1)), length: 255 })
    expect(matches.firstOf(0)).toBeUndefined()
    // Three automata of names (2.5 times the size), one of domains: the text read four times.
    expect(matches.steps).toBeGreaterThanOrEqual(4 * text.length)
    expect(matches.steps).toBeLessThanOrEqual(4 * 2 * text.length + 10)
  })
})
