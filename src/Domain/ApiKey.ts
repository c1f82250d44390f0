import { Schema } from "effect"
import { createHash, randomInt } from "node:crypto"
import { Id, Timestamp } from "./Common.ts"

/** A stored key: never the key itself, only its SHA-256 and a display prefix (docs/api.md). */
export interface ApiKey {
  readonly id: number
  readonly organization_id: number
  readonly name: string
  readonly prefix: string
  readonly abilities: ReadonlyArray<string>
  /** The projects the key may act in; null means every project of the organization. */
  readonly project_ids: ReadonlyArray<number> | null
  readonly expires_at: Date | null
  readonly revoked_at: Date | null
  readonly last_used_at: Date | null
  readonly created_at: Date
}

/** The key as `GET /me` shows it. */
export const ApiKeyView = Schema.Struct({
  id: Id,
  name: Schema.String,
  prefix: Schema.String.annotations({ description: "The first 8 characters of the key.", examples: ["bvm_a1B2"] }),
  created_at: Timestamp,
  expires_at: Schema.NullOr(Timestamp),
  last_used_at: Schema.NullOr(Timestamp)
}).annotations({ identifier: "ApiKey" })

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

/** `bvm_` and 40 base62 characters from the OS's CSPRNG (randomInt is unbiased). */
export const generateKey = (): string => {
  let body = ""
  for (let i = 0; i < 40; i++) body += BASE62[randomInt(BASE62.length)]
  return `bvm_${body}`
}

export const KEY_PATTERN = /^bvm_[0-9A-Za-z]{40}$/

export const hashKey = (key: string): string => createHash("sha256").update(key, "utf8").digest("hex")

export const keyPrefix = (key: string): string => key.slice(0, 8)

export const isUsable = (key: ApiKey, now: Date): boolean =>
  key.revoked_at === null && (key.expires_at === null || key.expires_at.getTime() > now.getTime())
