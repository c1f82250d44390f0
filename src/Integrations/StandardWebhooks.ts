import { createHmac, randomBytes, timingSafeEqual } from "node:crypto"
import { Redacted } from "effect"

/**
 * Signing and verifying webhook requests as the Standard Webhooks specification defines them
 * (https://www.standardwebhooks.com, version 1, symmetric):
 *
 * - the secret is `whsec_` followed by the base64 of 24 to 64 random bytes; the HMAC key is those
 *   bytes (the decoded part, not the text);
 * - the signed content is `{webhook-id}.{webhook-timestamp}.{body}`, the body exactly as sent;
 * - `webhook-signature` is `v1,` + base64(HMAC-SHA256(key, content)); several signatures (one per
 *   secret while a secret is being rotated) are separated by spaces;
 * - `webhook-timestamp` is integer seconds since the epoch; a receiver refuses timestamps more than
 *   five minutes from its clock, which bounds replays.
 */

export const SECRET_PREFIX = "whsec_"

/** Bytes of a new secret: 32, inside the specification's 24 to 64. */
const SECRET_BYTES = 32

/** The tolerance of receivers the specification recommends: five minutes either way. */
export const DEFAULT_TOLERANCE_SECONDS = 5 * 60

export type Secret = string | Redacted.Redacted<string>

const reveal = (secret: Secret): string => (Redacted.isRedacted(secret) ? Redacted.value(secret) : secret)

/** A new secret, `whsec_` + base64 of 32 random bytes. Shown once, at creation. */
export const generateSecret = (random: (size: number) => Uint8Array = randomBytes): string =>
  SECRET_PREFIX + Buffer.from(random(SECRET_BYTES)).toString("base64")

/** A secret that cannot be used; its message never contains the secret. */
export class InvalidSecret extends Error {
  readonly _tag = "InvalidSecret"
}

/**
 * The HMAC key of a secret: the base64 after `whsec_` (the prefix is optional, as in the reference
 * libraries). Strict base64: a secret mangled in a copy and paste is refused rather than silently
 * read as other bytes.
 */
export const secretKey = (secret: Secret): Buffer => {
  const text = reveal(secret)
  const encoded = text.startsWith(SECRET_PREFIX) ? text.slice(SECRET_PREFIX.length) : text
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(encoded)) {
    throw new InvalidSecret("the webhook secret is not base64 after its whsec_ prefix")
  }
  const key = Buffer.from(encoded, "base64")
  if (key.length === 0) throw new InvalidSecret("the webhook secret is empty")
  return key
}

const bodyBytes = (body: string | Uint8Array): Buffer => (typeof body === "string" ? Buffer.from(body, "utf8") : Buffer.from(body))

/** The raw HMAC of one message with one key. */
const digest = (key: Buffer, id: string, timestamp: string, body: Buffer): Buffer =>
  createHmac("sha256", key).update(`${id}.${timestamp}.`, "utf8").update(body).digest()

/** The `webhook-signature` value: one `v1,` signature per secret (several while rotating), space-separated. */
export const sign = (
  secrets: Secret | ReadonlyArray<Secret>,
  id: string,
  timestampSeconds: number,
  body: string | Uint8Array
): string => {
  const list = Array.isArray(secrets) ? (secrets as ReadonlyArray<Secret>) : [secrets as Secret]
  if (list.length === 0) throw new InvalidSecret("no webhook secret to sign with")
  const bytes = bodyBytes(body)
  return list.map((secret) => `v1,${digest(secretKey(secret), id, String(timestampSeconds), bytes).toString("base64")}`).join(" ")
}

export type WebhookHeaders = {
  readonly "webhook-id": string
  readonly "webhook-timestamp": string
  readonly "webhook-signature": string
}

/** The three headers of a delivery. The same id (and a new timestamp and signature) on every retry of a message. */
export const webhookHeaders = (
  secrets: Secret | ReadonlyArray<Secret>,
  id: string,
  timestampSeconds: number,
  body: string | Uint8Array
): WebhookHeaders => ({
  "webhook-id": id,
  "webhook-timestamp": String(timestampSeconds),
  "webhook-signature": sign(secrets, id, timestampSeconds, body)
})

/** A new message id, `msg_` + 22 URL-safe random characters; it identifies a message across retries. */
export const newMessageId = (random: (size: number) => Uint8Array = randomBytes): string =>
  `msg_${Buffer.from(random(16)).toString("base64url")}`

export type VerificationFailure =
  | "missing_headers"
  | "invalid_timestamp"
  | "timestamp_too_old"
  | "timestamp_too_new"
  | "no_matching_signature"

export type Verification = { readonly valid: true; readonly id: string; readonly timestamp: number } | { readonly valid: false; readonly reason: VerificationFailure }

/** A header's value whatever the case of its name (HTTP header names are case-insensitive). */
const header = (headers: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>, name: string): string | undefined => {
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() === name) return Array.isArray(value) ? value.join(" ") : (value as string | undefined)
  }
  return undefined
}

/**
 * Whether a request carries a valid signature of its body by one of the secrets (several while
 * rotating), with a timestamp within the tolerance of `nowSeconds`. The comparison of signatures
 * takes the same time whatever bytes differ. Signatures of other versions (`v1a,`) are ignored.
 */
export const verify = (
  secrets: Secret | ReadonlyArray<Secret>,
  headers: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>,
  body: string | Uint8Array,
  nowSeconds: number,
  toleranceSeconds: number = DEFAULT_TOLERANCE_SECONDS
): Verification => {
  const id = header(headers, "webhook-id")
  const timestamp = header(headers, "webhook-timestamp")
  const signatures = header(headers, "webhook-signature")
  if (id === undefined || timestamp === undefined || signatures === undefined || id === "") return { valid: false, reason: "missing_headers" }
  if (!/^\d{1,15}$/.test(timestamp)) return { valid: false, reason: "invalid_timestamp" }
  const seconds = Number(timestamp)
  if (seconds < nowSeconds - toleranceSeconds) return { valid: false, reason: "timestamp_too_old" }
  if (seconds > nowSeconds + toleranceSeconds) return { valid: false, reason: "timestamp_too_new" }
  const given = signatures.split(" ").flatMap((entry) => {
    const [version, value] = entry.split(",", 2)
    return version === "v1" && value !== undefined ? [Buffer.from(value, "base64")] : []
  })
  const bytes = bodyBytes(body)
  const list = Array.isArray(secrets) ? (secrets as ReadonlyArray<Secret>) : [secrets as Secret]
  for (const secret of list) {
    const expected = digest(secretKey(secret), id, timestamp, bytes)
    for (const signature of given) {
      if (signature.length === expected.length && timingSafeEqual(signature, expected)) return { valid: true, id, timestamp: seconds }
    }
  }
  return { valid: false, reason: "no_matching_signature" }
}
