import type { SqlClient } from "@effect/sql"
import { Effect, Schema } from "effect"
import { decodeRows, orDefect } from "../Database/Rows.ts"
import { Id } from "../Domain/Common.ts"

/** A prompt carrying k >= 3 of the given tags, and `w` = (k - 1)(k - 2)/2 (see `higherOrderPrompts`). */
export const HigherOrderPrompt = Schema.Struct({ prompt_id: Id, w: Schema.Int })
export type HigherOrderPrompt = typeof HigherOrderPrompt.Type

/**
 * The tag and pair rollups count a response whose prompt carries k of the given tags k - k(k - 1)/2
 * times, so those with k >= 3 are added (k - 1)(k - 2)/2 more times (`w`) from their raw rows, by the
 * source and the brand analytics alike. These are the project's prompts carrying three or more of the
 * tags, none for fewer than 3 tags (or none): read first, so that a statement reads the raw rows of those
 * prompts only, through their index, or none at all.
 */
export const higherOrderPrompts = (sql: SqlClient.SqlClient, projectId: number, tags: ReadonlyArray<number> | undefined) =>
  tags === undefined || tags.length < 3
    ? Effect.succeed<ReadonlyArray<HigherOrderPrompt>>([])
    : decodeRows(
      HigherOrderPrompt,
      sql`
        SELECT pt.prompt_id, ((count(*) - 1) * (count(*) - 2) / 2)::integer AS w
        FROM prompt_tags pt JOIN prompts p ON p.id = pt.prompt_id
        WHERE p.project_id = ${projectId} AND pt.tag_id IN ${sql.in(tags)}
        GROUP BY pt.prompt_id HAVING count(*) > 2`
    ).pipe(orDefect)
