import { FastCheck as fc } from "effect"
import { describe, expect, it } from "vitest"
import { compareText } from "../../../src/Analytics/Analytics.ts"

/** Domains and URLs order by Unicode code points, as PostgreSQL's "C" collation does on UTF-8. */

const byCodePoints = (a: string, b: string): number => {
  const [left, right] = [[...a].map((c) => c.codePointAt(0)!), [...b].map((c) => c.codePointAt(0)!)]
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    if (left[i] !== right[i]) return left[i]! < right[i]! ? -1 : 1
  }
  return Math.sign(left.length - right.length)
}

describe("compareText", () => {
  it("puts characters above U+FFFF after U+E000-U+FFFF, unlike UTF-16 units", () => {
    expect(compareText("a\u{1F600}", "a\uFF21")).toBe(1)
    expect(compareText("a\uFF21", "a\u{1F600}")).toBe(-1)
    expect(compareText("ab", "abc")).toBe(-1)
    expect(compareText("b", "abc")).toBe(1)
    expect(compareText("x", "x")).toBe(0)
  })

  it("agrees with a plain code point comparison on any strings", () => {
    const text = fc.string({ unit: fc.constantFrom("a", "b", "\uE000", "\uFFFF", "\u{10000}", "\u{1F600}", "é"), maxLength: 6 })
    fc.assert(fc.property(text, text, (a, b) => {
      expect(compareText(a, b)).toBe(byCodePoints(a, b))
    }), { numRuns: 2000 })
  })
})
