import type { SqlError } from "@effect/sql"

/** PostgreSQL's unique_violation, on the named constraint or index. */
export const isUniqueViolation = (error: SqlError.SqlError, constraint: string): boolean => {
  const cause = error.cause as { readonly code?: unknown; readonly constraint?: unknown } | undefined
  return cause?.code === "23505" && cause.constraint === constraint
}
