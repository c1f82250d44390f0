import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto"
import { Option, Redacted } from "effect"

/**
 * How webhook secrets are kept. A Standard Webhooks secret signs every delivery, so the service needs
 * the secret itself, not a hash of it (as it keeps for API keys). With `WEBHOOK_SECRETS_KEY` set, a
 * secret is stored sealed with AES-256-GCM under the SHA-256 of that setting (`v1:` + base64 of nonce,
 * tag and ciphertext); a copy of the database alone then signs nothing. Without it, secrets are stored
 * as they are (`plain:`), as the specification's own server does: protect the database as you would
 * the secrets. Secrets stored in either form stay readable after the setting is added.
 */

export type SecretsKey = Option.Option<Redacted.Redacted>

/** Why a stored secret cannot be read. Its message never holds the secret. */
export class SecretUnavailable extends Error {
  readonly _tag = "SecretUnavailable"
}

const keyOf = (key: Redacted.Redacted) => createHash("sha256").update(Redacted.value(key), "utf8").digest()

export const seal = (secret: string, key: SecretsKey): string => {
  if (Option.isNone(key)) return `plain:${secret}`
  const nonce = randomBytes(12)
  const cipher = createCipheriv("aes-256-gcm", keyOf(key.value), nonce)
  const sealed = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()])
  return `v1:${Buffer.concat([nonce, cipher.getAuthTag(), sealed]).toString("base64")}`
}

export const open = (stored: string, key: SecretsKey): string => {
  if (stored.startsWith("plain:")) return stored.slice("plain:".length)
  if (!stored.startsWith("v1:")) throw new SecretUnavailable("the webhook's secret is stored in an unknown form")
  if (Option.isNone(key)) throw new SecretUnavailable("the webhook's secret is sealed and WEBHOOK_SECRETS_KEY is not set")
  const bytes = Buffer.from(stored.slice(3), "base64")
  try {
    const decipher = createDecipheriv("aes-256-gcm", keyOf(key.value), bytes.subarray(0, 12))
    decipher.setAuthTag(bytes.subarray(12, 28))
    return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString("utf8")
  } catch {
    throw new SecretUnavailable("the webhook's secret does not open with WEBHOOK_SECRETS_KEY (was the setting changed?)")
  }
}
