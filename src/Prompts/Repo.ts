import { SqlClient, type SqlError, SqlSchema } from "@effect/sql"
import { Context, Effect, Layer, Schema } from "effect"
import { lockForRow } from "../Database/ProjectLocks.ts"
import * as ProjectTable from "../Database/ProjectTable.ts"
import { orDefect, rowOf } from "../Database/Rows.ts"
import { Id } from "../Domain/Common.ts"
import { NotFound } from "../Domain/Errors.ts"
import { Prompt } from "../Domain/Prompt.ts"
import { Tag } from "../Domain/Tag.ts"

export interface NewPrompt {
  readonly monitor_id: number
  readonly text: string
  /** Tag ids of the same project, already checked: the prompt's whole tag set. */
  readonly tag_ids: ReadonlyArray<number>
}

/**
 * The project's prompts, each with its tags; deleting one deletes its responses. A create or update
 * naming a monitor that is gone (deleted since the request checked it) is `NotFound` (Monitor).
 */
export class PromptsRepo extends Context.Tag("PromptsRepo")<PromptsRepo, ProjectTable.ProjectTable<Prompt, NewPrompt> & {
  /** Idempotent: attaching an attached tag (or detaching a detached one) changes nothing. */
  readonly attachTag: (promptId: number, tagId: number) => Effect.Effect<Prompt, NotFound>
  readonly detachTag: (promptId: number, tagId: number) => Effect.Effect<Prompt, NotFound>
}>() {}

export const layerSql = Layer.effect(
  PromptsRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const table = yield* ProjectTable.make<Prompt, Omit<NewPrompt, "tag_ids">>({
      table: "prompts",
      resource: "Prompt",
      row: Prompt,
      // The tags as JSON, their timestamps as text: decoded with the Tag schema as the API reads them.
      computed: {
        tags: `coalesce((
          SELECT json_agg(json_build_object('id', t.id, 'name', t.name, 'color', t.color, 'created_at', t.created_at, 'updated_at', t.updated_at) ORDER BY t.id)
          FROM prompt_tags pt JOIN tags t ON t.id = pt.tag_id WHERE pt.prompt_id = prompts.id), '[]')`
      },
      decode: Schema.extend(rowOf(Prompt.omit("tags")), Schema.Struct({ tags: Schema.Array(Tag) })),
      parent: { column: "monitor_id", table: "monitors", resource: "Monitor" }
    })

    const tagIdsOf = SqlSchema.findAll({
      Request: Id,
      Result: Schema.Struct({ tag_id: Id }),
      execute: (promptId) => sql`SELECT tag_id FROM prompt_tags WHERE prompt_id = ${promptId}`
    })

    /**
     * Only the tags that change, one statement each: the rollup triggers count the pairs a tag forms
     * with the prompt's other tags row by row, and two rows of one statement would each see the other
     * (a pair counted twice when both are added, never subtracted when both are removed).
     */
    const replaceTags = (promptId: number, tagIds: ReadonlyArray<number>) =>
      Effect.gen(function*() {
        // Two replacements of one prompt's tags run one after the other, each reading the other's result.
        yield* sql`SELECT id FROM prompts WHERE id = ${promptId} FOR NO KEY UPDATE`
        const wanted = new Set(tagIds)
        const current = (yield* tagIdsOf(promptId)).map((row) => row.tag_id)
        for (const tagId of current.filter((id) => !wanted.has(id)).sort((a, b) => a - b)) {
          yield* sql`DELETE FROM prompt_tags WHERE prompt_id = ${promptId} AND tag_id = ${tagId}`
        }
        const kept = new Set(current)
        for (const tagId of [...wanted].filter((id) => !kept.has(id)).sort((a, b) => a - b)) {
          // Under the rollup lock no tag is deleted meanwhile: one deleted since the request checked it is
          // left out, as its deletion, had it come after, would have detached it.
          yield* sql`INSERT INTO prompt_tags (prompt_id, tag_id) SELECT ${promptId}, id FROM tags WHERE id = ${tagId} ON CONFLICT DO NOTHING`
        }
      })

    const withTagIds = yield* ProjectTable.withIdSet(table, { table: "prompts", field: "tag_ids", rollups: true, replace: replaceTags })

    const PromptAndTag = Schema.Struct({ prompt: Schema.Boolean, tag: Schema.Boolean })
    const promptAndTag = SqlSchema.single({
      Request: Schema.Struct({ promptId: Schema.Number, tagId: Schema.Number }),
      Result: PromptAndTag,
      execute: ({ promptId, tagId }) =>
        sql`SELECT EXISTS (SELECT 1 FROM prompts WHERE id = ${promptId}) AS prompt, EXISTS (SELECT 1 FROM tags WHERE id = ${tagId}) AS tag`
    })

    /**
     * A change of the prompt's tags, under its project's locks (Database/ProjectLocks.ts): the rollup
     * triggers count it, and a deletion of the prompt or a tag waits for it or comes whole before it.
     * Then the prompt as it is.
     */
    const changeTags = <E>(promptId: number, change: Effect.Effect<void, E | SqlError.SqlError>) =>
      lockForRow(sql, "prompts", promptId, { rollups: true }).pipe(
        Effect.zipRight(change),
        sql.withTransaction,
        orDefect,
        Effect.zipRight(table.get(promptId))
      )

    return PromptsRepo.of({
      ...table,
      ...withTagIds,
      attachTag: (promptId, tagId) =>
        changeTags(
          promptId,
          Effect.gen(function*() {
            // No deletion of either can run while the rollup lock is held: what is found here stays.
            const found = yield* promptAndTag({ promptId, tagId })
            if (!found.prompt) return yield* new NotFound({ resource: "Prompt" })
            if (!found.tag) return yield* new NotFound({ resource: "Tag" })
            yield* sql`INSERT INTO prompt_tags (prompt_id, tag_id) VALUES (${promptId}, ${tagId}) ON CONFLICT DO NOTHING`
          })
        ),
      // A tag deleted meanwhile is detached already.
      detachTag: (promptId, tagId) => changeTags(promptId, sql`DELETE FROM prompt_tags WHERE prompt_id = ${promptId} AND tag_id = ${tagId}`)
    })
  })
)
