import { Effect } from "effect"
import type { ProjectTable } from "../Database/ProjectTable.ts"
import { type NotFound, orNotFound, ValidationError } from "../Domain/Errors.ts"
import type { Project } from "../Domain/Project.ts"
import { CurrentProject } from "./ProjectContext.ts"
import { paginated, type PageParams } from "./Responses.ts"

/**
 * What the handlers of every project resource share (ProjectResourceApi.ts): a path resource found
 * in the active project or `<Resource> not found`, and the five endpoints' work, each answer wrapped
 * as the API answers it (`{"data": ...}`, or the page envelope).
 */
export const projectResourceHandlers = <A extends { readonly id: number }, New, Conflict, Shown = A, CreateConflict = Conflict>(
  /** The storage; its creation may fail in ways of its own (a brand past the cap). */
  table: Omit<ProjectTable<A, New, Conflict>, "create"> & {
    readonly create: (projectId: number, values: New) => Effect.Effect<A, NotFound | CreateConflict>
  },
  resource: string,
  /** The resource as the API shows it in its project (a brand's `is_own`); as stored by default. */
  shown: (project: Project) => (row: A) => Shown = () => (row) => row as unknown as Shown
) => {
  /** The resource of the path, in the active project; another project's is not found. */
  const find = (id: number) => Effect.flatMap(CurrentProject, (project) => table.find(project.id, id)).pipe(orNotFound(resource))
  /** `{"data": <the resource as shown>}`. */
  const data = <E, R>(row: Effect.Effect<A, E, R>) =>
    Effect.flatMap(CurrentProject, (project) => Effect.map(row, (stored) => ({ data: shown(project)(stored) })))
  return {
    find,
    shown,
    data,
    list: ({ urlParams }: { readonly urlParams: PageParams }) =>
      Effect.flatMap(CurrentProject, (project) =>
        paginated(urlParams, (window) => Effect.map(table.list(project.id, window), (page) => ({ ...page, rows: page.rows.map(shown(project)) })))),
    get: (id: number) => data(find(id)),
    create: (values: New) => data(Effect.flatMap(CurrentProject, (project) => table.create(project.id, values))),
    update: (id: number, patch: Parameters<typeof table.update>[1]) => data(Effect.flatMap(find(id), (row) => table.update(row.id, patch))),
    delete: (id: number) => Effect.flatMap(find(id), (row) => table.delete(row.id))
  }
}

/** One reference of a body: a field holding one id or a list of ids, and which of them are the project's. */
export interface Reference {
  readonly field: string
  readonly ids: number | ReadonlyArray<number> | undefined
  readonly existing: (ids: ReadonlyArray<number>) => Effect.Effect<ReadonlyArray<number>>
}

/**
 * The ids a body refers to must be the active project's: a foreign one is a 422 naming the field
 * (`monitor_id`) or the list item (`tags.0`). Checked before the path resource: validation comes
 * first in the order of checks (docs/api.md).
 */
export const checkReferences = (references: ReadonlyArray<Reference>) =>
  Effect.gen(function*() {
    const errors: Record<string, Array<string>> = {}
    for (const { existing, field, ids } of references) {
      if (ids === undefined) continue
      const list = typeof ids === "number" ? [ids] : ids
      if (list.length === 0) continue
      const known = new Set(yield* existing(list))
      list.forEach((id, index) => {
        if (known.has(id)) return
        // Laravel's wording: "The selected monitor id is invalid.", "The selected tags.0 is invalid."
        const [name, label] = typeof ids === "number" ? [field, field.replaceAll("_", " ")] : [`${field}.${index}`, `${field}.${index}`]
        errors[name] = [`The selected ${label} is invalid.`]
      })
    }
    if (Object.keys(errors).length > 0) return yield* new ValidationError({ errors })
  })
