import { HelpDoc, ValidationError } from "@effect/cli"
import { Effect, Either } from "effect"
import { abilities, WILDCARD } from "../Domain/Ability.ts"

/**
 * The syntax checks of the commands' arguments, as pure functions. They run while the command line is
 * parsed (`Options.mapEffect(validated(...))`), so a typo is reported at once, before any database is
 * opened, and by `@effect/cli` like its own parse errors.
 */

/** For `Options.mapEffect`. */
export const validated = <A, B>(check: (value: A) => Either.Either<B, string>) =>
(value: A): Effect.Effect<B, ValidationError.ValidationError> =>
  Either.match(check(value), {
    onLeft: (message) => Effect.fail(ValidationError.invalidValue(HelpDoc.p(message))),
    onRight: Effect.succeed
  })

/** For `Args.mapEffect`, whose errors are bare help docs. */
export const validatedArg = <A, B>(check: (value: A) => Either.Either<B, string>) =>
(value: A): Effect.Effect<B, HelpDoc.HelpDoc> =>
  Either.match(check(value), {
    onLeft: (message) => Effect.fail(HelpDoc.p(message)),
    onRight: Effect.succeed
  })

/** Longest `--expires-in-days`: a century, far beyond any sensible key lifetime, and a valid date. */
export const MAX_EXPIRES_IN_DAYS = 36_500

const items = (text: string): Array<string> =>
  text.split(",").map((item) => item.trim()).filter((item) => item !== "")

/**
 * `a, b,a` → `["a", "b"]`. Every item must be a known ability or `*`; `*` already grants everything, so
 * a list containing it is stored as `["*"]` alone.
 */
export const parseAbilities = (text: string): Either.Either<ReadonlyArray<string>, string> => {
  const given = [...new Set(items(text))]
  if (given.length === 0) {
    return Either.left(`--abilities needs at least one ability (comma-separated), or "${WILDCARD}" for all of them.`)
  }
  const known: ReadonlySet<string> = new Set(abilities)
  const unknown = given.filter((ability) => ability !== WILDCARD && !known.has(ability))
  if (unknown.length > 0) {
    const names = unknown.map((ability) => `"${ability}"`).join(", ")
    return Either.left(
      `Unknown ${unknown.length === 1 ? "ability" : "abilities"} ${names}. ` +
        `Valid abilities: ${abilities.join(", ")}; or "${WILDCARD}" for all of them.`
    )
  }
  return Either.right(given.includes(WILDCARD) ? [WILDCARD] : given)
}

const isId = (n: number) => Number.isSafeInteger(n) && n >= 1

/** `1, 2,1` → `[1, 2]`: project ids, positive integers. */
export const parseProjectIds = (text: string): Either.Either<ReadonlyArray<number>, string> => {
  const given = items(text)
  if (given.length === 0) {
    return Either.left("--projects needs at least one project id (comma-separated); omit it to allow every project.")
  }
  const invalid = given.filter((item) => !/^\d+$/.test(item) || !isId(Number(item)))
  if (invalid.length > 0) {
    return Either.left(`--projects takes project ids (positive integers), not ${invalid.map((item) => `"${item}"`).join(", ")}.`)
  }
  return Either.right([...new Set(given.map(Number))])
}

export const checkExpiresInDays = (days: number): Either.Either<number, string> =>
  Number.isInteger(days) && days >= 1 && days <= MAX_EXPIRES_IN_DAYS
    ? Either.right(days)
    : Either.left(`--expires-in-days must be a whole number of days from 1 to ${MAX_EXPIRES_IN_DAYS}, not ${days}.`)

export const checkId = (what: string) => (id: number): Either.Either<number, string> =>
  isId(id) ? Either.right(id) : Either.left(`${what} must be a positive integer id, not ${id}.`)
