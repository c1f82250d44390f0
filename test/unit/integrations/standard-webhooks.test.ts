import { createHmac } from "node:crypto"
import { describe, expect, it } from "@effect/vitest"
import { Redacted } from "effect"
import {
  generateSecret,
  InvalidSecret,
  newMessageId,
  secretKey,
  sign,
  verify,
  webhookHeaders
} from "../../../src/Integrations/StandardWebhooks.ts"

/** The test vector published with the Standard Webhooks specification and its reference libraries. */
const vector = {
  secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  id: "msg_p5jXN8AQM9LWM0D4loKWxJek",
  timestamp: 1614265330,
  body: "{\"test\": 2432232314}",
  signature: "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
}

const vectorHeaders = {
  "webhook-id": vector.id,
  "webhook-timestamp": String(vector.timestamp),
  "webhook-signature": vector.signature
}

describe("Standard Webhooks signatures", () => {
  it("reproduces the specification's test vector", () => {
    expect(sign(vector.secret, vector.id, vector.timestamp, vector.body)).toBe(vector.signature)
    expect(sign(Redacted.make(vector.secret), vector.id, vector.timestamp, new TextEncoder().encode(vector.body))).toBe(vector.signature)
  })

  it("agrees with an independent computation: HMAC keyed with the decoded secret over id.timestamp.body", () => {
    const secret = generateSecret()
    const body = JSON.stringify({ type: "webhook.test", data: { emoji: "✓" } })
    const key = Buffer.from(secret.slice("whsec_".length), "base64")
    const expected = createHmac("sha256", key).update(`msg_1.1700000000.${body}`).digest("base64")
    expect(sign(secret, "msg_1", 1700000000, body)).toBe(`v1,${expected}`)
  })

  it("signs with every secret while rotating, space-separated", () => {
    const old = generateSecret()
    const next = generateSecret()
    const value = sign([old, next], "msg_x", 1700000000, "{}")
    expect(value.split(" ")).toEqual([sign(old, "msg_x", 1700000000, "{}"), sign(next, "msg_x", 1700000000, "{}")])
  })

  it("builds the three headers", () => {
    expect(webhookHeaders(vector.secret, vector.id, vector.timestamp, vector.body)).toEqual(vectorHeaders)
  })

  it("makes secrets of 32 random bytes behind whsec_, and ids behind msg_", () => {
    const secret = generateSecret()
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    expect(secretKey(secret)).toHaveLength(32)
    expect(generateSecret()).not.toBe(secret)
    expect(newMessageId()).toMatch(/^msg_[A-Za-z0-9_-]{22}$/)
    expect(newMessageId(() => new Uint8Array(16))).toBe("msg_AAAAAAAAAAAAAAAAAAAAAA")
  })

  it("refuses malformed secrets without showing them", () => {
    for (const bad of ["whsec_", "whsec_not base64!", "whsec_abc", ""]) {
      let error: unknown
      try {
        secretKey(bad)
      } catch (caught) {
        error = caught
      }
      expect(error).toBeInstanceOf(InvalidSecret)
      if (bad.length > 6) expect((error as Error).message).not.toContain(bad.slice(6))
    }
    // The prefix is optional, as in the reference libraries.
    expect(secretKey("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")).toEqual(secretKey(vector.secret))
  })
})

describe("verification", () => {
  it("accepts the test vector at its time and within five minutes of it", () => {
    expect(verify(vector.secret, vectorHeaders, vector.body, vector.timestamp)).toEqual({ valid: true, id: vector.id, timestamp: vector.timestamp })
    expect(verify(vector.secret, vectorHeaders, vector.body, vector.timestamp + 300).valid).toBe(true)
    expect(verify(vector.secret, vectorHeaders, vector.body, vector.timestamp - 300).valid).toBe(true)
  })

  it("refuses timestamps beyond the tolerance, either way", () => {
    expect(verify(vector.secret, vectorHeaders, vector.body, vector.timestamp + 301)).toEqual({ valid: false, reason: "timestamp_too_old" })
    expect(verify(vector.secret, vectorHeaders, vector.body, vector.timestamp - 301)).toEqual({ valid: false, reason: "timestamp_too_new" })
    expect(verify(vector.secret, vectorHeaders, vector.body, vector.timestamp + 3600, 7200).valid).toBe(true)
  })

  it("refuses a changed body, id, timestamp or secret", () => {
    const now = vector.timestamp
    expect(verify(vector.secret, vectorHeaders, "{\"test\":2432232314}", now)).toEqual({ valid: false, reason: "no_matching_signature" })
    expect(verify(vector.secret, { ...vectorHeaders, "webhook-id": "msg_other" }, vector.body, now).valid).toBe(false)
    expect(verify(vector.secret, { ...vectorHeaders, "webhook-timestamp": String(now + 1) }, vector.body, now).valid).toBe(false)
    expect(verify(generateSecret(), vectorHeaders, vector.body, now).valid).toBe(false)
  })

  it("finds a valid v1 signature among several, ignoring other versions and junk", () => {
    const headers = { ...vectorHeaders, "webhook-signature": `v1a,abc v1,Zm9v garbage ${vector.signature}` }
    expect(verify(vector.secret, headers, vector.body, vector.timestamp).valid).toBe(true)
    const v1aOnly = { ...vectorHeaders, "webhook-signature": vector.signature.replace("v1,", "v1a,") }
    expect(verify(vector.secret, v1aOnly, vector.body, vector.timestamp).valid).toBe(false)
  })

  it("accepts any of several secrets, and header names in any case", () => {
    const headers = { "Webhook-Id": vector.id, "WEBHOOK-TIMESTAMP": String(vector.timestamp), "webhook-signature": vector.signature }
    expect(verify([generateSecret(), vector.secret], headers, vector.body, vector.timestamp).valid).toBe(true)
  })

  it("names what is wrong with the headers", () => {
    expect(verify(vector.secret, {}, vector.body, vector.timestamp)).toEqual({ valid: false, reason: "missing_headers" })
    for (const timestamp of ["1614265330.5", "-1", "abc", "", "1e9"]) {
      expect(verify(vector.secret, { ...vectorHeaders, "webhook-timestamp": timestamp }, vector.body, vector.timestamp)).toEqual({ valid: false, reason: "invalid_timestamp" })
    }
  })

  it("round-trips what it signs", () => {
    const secret = generateSecret()
    const body = JSON.stringify({ type: "alert.triggered", text: "naïve, \"quoted\"\n" })
    const headers = webhookHeaders(secret, newMessageId(), 1_800_000_000, body)
    expect(verify(secret, headers, body, 1_800_000_010).valid).toBe(true)
  })
})
