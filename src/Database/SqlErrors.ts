import type { SqlError } from "@effect/sql"

/** PostgreSQL's unique_violation, on the named constraint or index. */
export const isUniqueViolation = (error: SqlError.SqlError, constraint: string): boolean => {
  const cause = error.cause as { readonly code?: unknown; readonly constraint?: unknown } | undefined
  return cause?.code === "23505" && cause.constraint === constraint
}

/**
 * A conflict between concurrent transactions that PostgreSQL resolved by aborting this one (deadlock
 * detected, serialization failure): the transaction can simply run again.
 */
export const isTransientConflict = (error: SqlError.SqlError): boolean => {
  const code = (error.cause as { readonly code?: unknown } | undefined)?.code
  return code === "40P01" || code === "40001"
}
