import { SqlClient, type SqlError } from "@effect/sql"
import { Context, Data, Effect, Layer, Option } from "effect"
import { changesOf, isEmpty } from "../Database/Changes.ts"
import { isUniqueViolation } from "../Database/SqlErrors.ts"
import { firstOrNotFound, type NotFound } from "../Domain/Errors.ts"
import type { Page, Window } from "../Domain/Page.ts"
import type { Tag } from "../Domain/Tag.ts"

/** Another tag of the project already has this name, compared case-insensitively. */
export class TagNameTaken extends Data.TaggedError("TagNameTaken")<{}> {}

export interface NewTag {
  readonly name: string
  readonly color: string
}

export type TagPatch = { readonly [K in keyof NewTag]?: NewTag[K] | undefined }

export class TagsRepo extends Context.Tag("TagsRepo")<TagsRepo, {
  readonly list: (projectId: number, window: Window) => Effect.Effect<Page<Tag>, SqlError.SqlError>
  readonly find: (projectId: number, id: number) => Effect.Effect<Option.Option<Tag>, SqlError.SqlError>
  /** The given ids that are tags of the project. */
  readonly existing: (projectId: number, ids: ReadonlyArray<number>) => Effect.Effect<ReadonlyArray<number>, SqlError.SqlError>
  readonly create: (projectId: number, tag: NewTag) => Effect.Effect<Tag, TagNameTaken | SqlError.SqlError>
  readonly update: (id: number, patch: TagPatch) => Effect.Effect<Tag, TagNameTaken | NotFound | SqlError.SqlError>
  /** Deletes the tag and its prompt attachments; prompts stay. */
  readonly delete: (id: number) => Effect.Effect<void, SqlError.SqlError>
}>() {}

const UNIQUE_NAME = "tags_project_id_name_unique"

export const layerSql = Layer.effect(
  TagsRepo,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql`id, name, color, created_at, updated_at`
    // The unique index decides, so two concurrent requests cannot both take a name.
    const nameTaken = <A>(effect: Effect.Effect<A, SqlError.SqlError>) =>
      Effect.catchIf(effect, (error) => isUniqueViolation(error, UNIQUE_NAME), () => Effect.fail(new TagNameTaken()))
    return TagsRepo.of({
      list: (projectId, window) =>
        Effect.all({
          rows: sql<Tag>`
            SELECT ${columns} FROM tags WHERE project_id = ${projectId}
            ORDER BY id LIMIT ${window.limit} OFFSET ${window.offset}`,
          total: sql<{ total: number }>`SELECT count(*) AS total FROM tags WHERE project_id = ${projectId}`.pipe(
            Effect.map((rows) => rows[0]!.total)
          )
        }),
      find: (projectId, id) =>
        sql<Tag>`SELECT ${columns} FROM tags WHERE id = ${id} AND project_id = ${projectId}`.pipe(
          Effect.map((rows) => Option.fromNullable(rows[0]))
        ),
      existing: (projectId, ids) =>
        ids.length === 0
          ? Effect.succeed([])
          : sql<{ id: number }>`SELECT id FROM tags WHERE project_id = ${projectId} AND id IN ${sql.in(ids)}`.pipe(
            Effect.map((rows) => rows.map((row) => row.id))
          ),
      create: (projectId, tag) =>
        sql<Tag>`INSERT INTO tags ${sql.insert({ project_id: projectId, ...tag })} RETURNING ${columns}`.pipe(
          Effect.map((rows) => rows[0]!),
          nameTaken
        ),
      update: (id, patch) => {
        const changes = changesOf(patch)
        const rows = isEmpty(changes)
          ? sql<Tag>`SELECT ${columns} FROM tags WHERE id = ${id}`
          : sql<Tag>`UPDATE tags SET ${sql.update(changes)}, updated_at = now() WHERE id = ${id} RETURNING ${columns}`
        return rows.pipe(nameTaken, Effect.flatMap(firstOrNotFound("Tag")))
      },
      delete: (id) => sql`DELETE FROM tags WHERE id = ${id}`.pipe(sql.withTransaction, Effect.asVoid)
    })
  })
)
