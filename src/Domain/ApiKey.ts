import { Data, Schema } from "effect"
import { createHash, randomInt } from "node:crypto"
import { WILDCARD } from "./Ability.ts"
import { Id, Timestamp } from "./Common.ts"

/** A stored key: never the key itself, only its SHA-256 and a display prefix (docs/api.md). */
export const ApiKey = Schema.Struct({
  id: Id,
  organization_id: Id,
  name: Schema.String,
  prefix: Schema.String,
  /** As granted: ability names, or `*`. */
  abilities: Schema.Array(Schema.String),
  /** The projects the key may act in; null means every project of the organization. */
  project_ids: Schema.NullOr(Schema.Array(Id)),
  expires_at: Schema.NullOr(Timestamp),
  revoked_at: Schema.NullOr(Timestamp),
  last_used_at: Schema.NullOr(Timestamp),
  created_at: Timestamp
})
export type ApiKey = typeof ApiKey.Type

/** The key as `GET /me` shows it. */
export const ApiKeyView = Schema.Struct({
  id: Id,
  name: Schema.String,
  prefix: Schema.String.annotations({ description: "The first 8 characters of the key.", examples: ["bvm_a1B2"] }),
  created_at: Timestamp,
  expires_at: Schema.NullOr(Timestamp),
  last_used_at: Schema.NullOr(Timestamp)
}).annotations({ identifier: "ApiKey" })

/**
 * Active keys (neither revoked nor expired) an organization may hold: every list and revocation reads
 * them all, and no real use needs more (docs/security.md, "Keys").
 */
export const MAX_ACTIVE_KEYS = 1000

/** A key refused because its organization holds `MAX_ACTIVE_KEYS` active keys already. */
export class TooManyKeys extends Data.TaggedError("TooManyKeys")<{ readonly organizationId: number }> {
  override get message() {
    return `The organization already has ${MAX_ACTIVE_KEYS} active API keys, the most it may have; revoke one to make another.`
  }
}

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

/** Whether a use at `at` is recorded: `last_used_at` moves at most once a minute, so reads are not each a write. */
export const isUseDue = (key: Pick<ApiKey, "last_used_at">, at: Date): boolean =>
  key.last_used_at === null || key.last_used_at.getTime() < at.getTime() - 60_000

/**
 * Whether a key may manage `target` (see, create, revoke it): every ability and project the target
 * grants is one the key has itself, and it expires no later. So a key can never hand out, or take away,
 * more than it holds.
 */
export const withinReach = (
  key: Pick<ApiKey, "abilities" | "project_ids" | "expires_at">,
  target: Pick<ApiKey, "abilities" | "project_ids" | "expires_at">
): boolean =>
  target.abilities.every((ability) => key.abilities.includes(WILDCARD) || key.abilities.includes(ability)) &&
  (key.project_ids === null || (target.project_ids !== null && target.project_ids.every((id) => key.project_ids!.includes(id)))) &&
  (key.expires_at === null || (target.expires_at !== null && target.expires_at.getTime() <= key.expires_at.getTime()))
