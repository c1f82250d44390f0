import { describe, expect, it } from "vitest"
import { isValidText, storableText } from "../../src/Domain/Text.ts"

/** What the database can store: no NUL, no lone surrogate; a platform's answer is made storable rather than lost. */
describe("storable text", () => {
  it("tells valid text from text with a NUL or a lone surrogate", () => {
    expect(isValidText("plain, émoji \u{1F600}, 中文")).toBe(true)
    expect(isValidText("a\u0000b")).toBe(false)
    expect(isValidText("a\ud800b")).toBe(false)
    expect(isValidText("a\udc00")).toBe(false)
    expect(isValidText("\ud83d")).toBe(false)
  })

  it("drops NULs and replaces lone surrogates, keeping everything else", () => {
    expect(storableText("a\u0000b\u0000")).toBe("ab")
    expect(storableText("x\ud800y\udc00z")).toBe("x\ufffdy\ufffdz")
    expect(storableText("ok \u{1F600}")).toBe("ok \u{1F600}")
    expect(isValidText(storableText("\u0000\ud800\udc00\udc00\ud800"))).toBe(true)
    expect(storableText("\ud800\udc00\udc00")).toBe("\u{10000}\ufffd")
  })
})
