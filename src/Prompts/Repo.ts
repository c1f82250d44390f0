import { SqlClient, type SqlError } from "@effect/sql"
import { Context, Effect, Layer, Option } from "effect"
import { changesOf, isEmpty } from "../Database/Changes.ts"
import { firstOrNotFound, type NotFound } from "../Domain/Errors.ts"
import type { Page, Window } from "../Domain/Page.ts"
import type { Prompt } from "../Domain/Prompt.ts"
import type { Tag } from "../Domain/Tag.ts"

export interface NewPrompt {
  readonly monitor_id: number
  readonly text: string
  /** Tag ids of the same project, already checked. */
  readonly tag_ids: ReadonlyArray<number>
}

export interface PromptPatch {
  readonly monitor_id?: number | undefined
  readonly text?: string | undefined
  /** When given, the whole new tag set. */
  readonly tag_ids?: ReadonlyArray<number> | undefined
}

export class PromptsRepo extends Context.Tag("PromptsRepo")<PromptsRepo, {
  readonly list: (
    projectId: number,
    filter: { readonly monitorId?: number | undefined },
    window: Window
  ) => Effect.Effect<Page<Prompt>, SqlError.SqlError>
  readonly find: (projectId: number, id: number) => Effect.Effect<Option.Option<Prompt>, SqlError.SqlError>
  /** The prompts of these ids in the project, with their tags, in two queries. */
  readonly findMany: (projectId: number, ids: ReadonlyArray<number>) => Effect.Effect<ReadonlyArray<Prompt>, SqlError.SqlError>
  readonly create: (projectId: number, prompt: NewPrompt) => Effect.Effect<Prompt, NotFound | SqlError.SqlError>
  readonly update: (id: number, patch: PromptPatch) => Effect.Effect<Prompt, NotFound | SqlError.SqlError>
  readonly delete: (id: number) => Effect.Effect<void, SqlError.SqlError>
  /** Idempotent: attaching an attached tag (or detaching a detached one) changes nothing. */
  readonly attachTag: (promptId: number, tagId: number) => Effect.Effect<Prompt, NotFound | SqlError.SqlError>
  readonly detachTag: (promptId: number, tagId: number) => Effect.Effect<Prompt, NotFound | SqlError.SqlError>
}>() {}

interface PromptRow {
  readonly id: number
  readonly monitor_id: number
  readonly text: string
  readonly created_at: Date
  readonly updated_at: Date
}

export const layerSql = Layer.effect(
  PromptsRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql`id, monitor_id, text, created_at, updated_at`

    // The tags of a whole page in one query, never one per row.
    const withTags = (rows: ReadonlyArray<PromptRow>) =>
      rows.length === 0
        ? Effect.succeed<Array<Prompt>>([])
        : sql<Tag & { prompt_id: number }>`
            SELECT pt.prompt_id, t.id, t.name, t.color, t.created_at, t.updated_at
            FROM prompt_tags pt JOIN tags t ON t.id = pt.tag_id
            WHERE pt.prompt_id IN ${sql.in(rows.map((row) => row.id))}
            ORDER BY t.id`.pipe(
          Effect.map((tagRows) => {
            const tagsByPrompt = new Map<number, Array<Tag>>()
            for (const { prompt_id, ...tag } of tagRows) {
              const tags = tagsByPrompt.get(prompt_id) ?? []
              tags.push(tag)
              tagsByPrompt.set(prompt_id, tags)
            }
            return rows.map((row) => ({ ...row, tags: tagsByPrompt.get(row.id) ?? [] }))
          })
        )

    const byId = (id: number) =>
      sql<PromptRow>`SELECT ${columns} FROM prompts WHERE id = ${id}`.pipe(
        Effect.flatMap(withTags),
        Effect.flatMap(firstOrNotFound("Prompt"))
      )

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
        const current = (yield* sql<{ tag_id: number }>`SELECT tag_id FROM prompt_tags WHERE prompt_id = ${promptId}`).map((row) => row.tag_id)
        for (const tagId of current.filter((id) => !wanted.has(id)).sort((a, b) => a - b)) {
          yield* sql`DELETE FROM prompt_tags WHERE prompt_id = ${promptId} AND tag_id = ${tagId}`
        }
        const kept = new Set(current)
        for (const tagId of [...wanted].filter((id) => !kept.has(id)).sort((a, b) => a - b)) {
          yield* sql`INSERT INTO prompt_tags (prompt_id, tag_id) VALUES (${promptId}, ${tagId}) ON CONFLICT DO NOTHING`
        }
      })

    return PromptsRepo.of({
      list: (projectId, filter, window) => {
        const where = filter.monitorId === undefined
          ? sql`project_id = ${projectId}`
          : sql`project_id = ${projectId} AND monitor_id = ${filter.monitorId}`
        return Effect.all({
          rows: sql<PromptRow>`SELECT ${columns} FROM prompts WHERE ${where} ORDER BY id LIMIT ${window.limit} OFFSET ${window.offset}`.pipe(
            Effect.flatMap(withTags)
          ),
          total: sql<{ total: number }>`SELECT count(*) AS total FROM prompts WHERE ${where}`.pipe(
            Effect.map((rows) => rows[0]!.total)
          )
        })
      },
      find: (projectId, id) =>
        sql<PromptRow>`SELECT ${columns} FROM prompts WHERE id = ${id} AND project_id = ${projectId}`.pipe(
          Effect.flatMap(withTags),
          Effect.map((prompts) => Option.fromNullable(prompts[0]))
        ),
      findMany: (projectId, ids) =>
        ids.length === 0
          ? Effect.succeed([])
          : sql<PromptRow>`SELECT ${columns} FROM prompts WHERE project_id = ${projectId} AND id IN ${sql.in(ids)} ORDER BY id`.pipe(
            Effect.flatMap(withTags)
          ),
      create: (projectId, prompt) =>
        Effect.gen(function*() {
          const [row] = yield* sql<{ id: number }>`
            INSERT INTO prompts ${sql.insert({ project_id: projectId, monitor_id: prompt.monitor_id, text: prompt.text })}
            RETURNING id`
          yield* replaceTags(row!.id, prompt.tag_ids)
          return yield* byId(row!.id)
        }).pipe(sql.withTransaction),
      update: (id, patch) =>
        Effect.gen(function*() {
          const { tag_ids, ...fields } = patch
          const changes = changesOf(fields)
          if (!isEmpty(changes)) {
            yield* sql`UPDATE prompts SET ${sql.update(changes)}, updated_at = now() WHERE id = ${id}`
          } else if (tag_ids !== undefined) {
            yield* sql`UPDATE prompts SET updated_at = now() WHERE id = ${id}`
          }
          if (tag_ids !== undefined) yield* replaceTags(id, tag_ids)
          return yield* byId(id)
        }).pipe(sql.withTransaction),
      delete: (id) => sql`DELETE FROM prompts WHERE id = ${id}`.pipe(sql.withTransaction, Effect.asVoid),
      attachTag: (promptId, tagId) =>
        sql`INSERT INTO prompt_tags (prompt_id, tag_id) VALUES (${promptId}, ${tagId}) ON CONFLICT DO NOTHING`.pipe(
          Effect.zipRight(byId(promptId))
        ),
      detachTag: (promptId, tagId) =>
        sql`DELETE FROM prompt_tags WHERE prompt_id = ${promptId} AND tag_id = ${tagId}`.pipe(Effect.zipRight(byId(promptId)))
    })
  })
)
