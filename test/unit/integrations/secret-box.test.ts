import { Option, Redacted } from "effect"
import { describe, expect, it } from "vitest"
import { open, seal, SecretUnavailable } from "../../../src/Webhooks/SecretBox.ts"

describe("webhook secrets at rest", () => {
  const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
  const key = Option.some(Redacted.make("a sealing key"))

  it("seals with the key (a new nonce each time) and opens what it sealed", () => {
    const first = seal(secret, key)
    const second = seal(secret, key)
    expect(first).toMatch(/^v1:[A-Za-z0-9+/]+=*$/)
    expect(first).not.toBe(second)
    expect(first).not.toContain("MfKQ9r8G")
    expect(open(first, key)).toBe(secret)
    expect(open(second, key)).toBe(secret)
  })

  it("stores as is without a key, and still opens that form once a key is set", () => {
    const plain = seal(secret, Option.none())
    expect(plain).toBe(`plain:${secret}`)
    expect(open(plain, Option.none())).toBe(secret)
    expect(open(plain, key)).toBe(secret)
  })

  it("refuses a sealed secret without its key, with another key, or altered, never saying the secret", () => {
    const sealed = seal(secret, key)
    const attempts = [
      () => open(sealed, Option.none()),
      () => open(sealed, Option.some(Redacted.make("another key"))),
      () => open(`${sealed.slice(0, -6)}AAAAAA`, key),
      () => open("v0:whatever", key)
    ]
    for (const attempt of attempts) {
      expect(attempt).toThrow(SecretUnavailable)
      try {
        attempt()
      } catch (error) {
        expect(String((error as Error).message)).not.toContain("MfKQ9r8G")
      }
    }
  })
})
