import { describe, expect, it } from "@effect/vitest"
import { Either } from "effect"
import { checkExpiresInDays, checkId, parseAbilities, parseProjectIds } from "../../src/Cli/Input.ts"

describe("parseAbilities", () => {
  it("trims, drops empty items and duplicates, keeps the order", () => {
    expect(parseAbilities(" projects:read,, tags:write ,projects:read,")).toEqual(Either.right(["projects:read", "tags:write"]))
  })
  it("stores * alone, since it grants everything", () => {
    expect(parseAbilities("*")).toEqual(Either.right(["*"]))
    expect(parseAbilities("tags:read, *")).toEqual(Either.right(["*"]))
  })
  it("names every unknown ability", () => {
    const result = parseAbilities("tags:read,bogus,projects:admin")
    expect(Either.isLeft(result)).toBe(true)
    expect(Either.getLeft(result).pipe((left) => left._tag === "Some" ? left.value : "")).toMatch(/"bogus", "projects:admin"/)
  })
  it("refuses an empty list", () => {
    expect(Either.isLeft(parseAbilities(""))).toBe(true)
    expect(Either.isLeft(parseAbilities(" , "))).toBe(true)
  })
})

describe("parseProjectIds", () => {
  it("parses and deduplicates positive ids", () => {
    expect(parseProjectIds("3, 1,3")).toEqual(Either.right([3, 1]))
  })
  it("refuses anything else", () => {
    for (const text of ["", "0", "-1", "1.5", "x", "1e3", "99999999999999999999"]) {
      expect(Either.isLeft(parseProjectIds(text)), text).toBe(true)
    }
  })
})

describe("checkExpiresInDays and checkId", () => {
  it("accept positive integers in range only", () => {
    expect(checkExpiresInDays(1)).toEqual(Either.right(1))
    expect(checkExpiresInDays(36_500)).toEqual(Either.right(36_500))
    for (const days of [0, -1, 36_501]) expect(Either.isLeft(checkExpiresInDays(days))).toBe(true)
    expect(checkId("--org")(7)).toEqual(Either.right(7))
    expect(Either.isLeft(checkId("--org")(0))).toBe(true)
  })
})
