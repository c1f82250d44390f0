import { Context, Layer } from "effect"
import { createHash, randomBytes } from "node:crypto"

/**
 * Visitors without addresses (docs/agent-traffic.md, "Privacy"): a referral's visitor is counted as a
 * salted hash of its address and user agent, with a salt made at random for each log day and thrown
 * away when the calendar day (UTC) ends. Within a day the same visitor gives the same hash, so visitors
 * are counted once; once the salt is gone, no one can tell which address gave a hash, not even this
 * service. The address itself is never stored.
 */
export interface SaltSource {
  /** The salt of a log day (YYYY-MM-DD). */
  readonly forDay: (day: string) => string
}

const utcDay = (millis: number): string => new Date(millis).toISOString().slice(0, 10)

/** Random salts, all discarded when the (UTC) calendar day changes. */
export const randomDailySalt = (now: () => number = Date.now): SaltSource => {
  let today = utcDay(now())
  let salts = new Map<string, string>()
  return {
    forDay: (day) => {
      const current = utcDay(now())
      if (current !== today) {
        salts = new Map()
        today = current
      }
      let salt = salts.get(day)
      if (salt === undefined) {
        salt = randomBytes(32).toString("hex")
        salts.set(day, salt)
      }
      return salt
    }
  }
}

export class Salt extends Context.Tag("TrafficSalt")<Salt, SaltSource>() {
  /** Random daily salts, for the service. */
  static readonly layer = Layer.sync(Salt, () => randomDailySalt())
  /** A salt derived from `secret` and the day, for tests: the same hashes on every run. */
  static readonly fixed = (secret: string) => Layer.succeed(Salt, { forDay: (day: string) => `${secret}|${day}` })
}

/** A visitor's hash: 128 bits of SHA-256 over the salt, the address and the user agent. */
export const visitorHash = (salt: string, ip: string, userAgent: string): string =>
  createHash("sha256").update(`${salt}\u0000${ip}\u0000${userAgent}`).digest("base64url").slice(0, 22)
