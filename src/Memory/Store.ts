import { Context, Layer } from "effect"
import type { ApiKey } from "../Domain/ApiKey.ts"
import type { Classification, Segment } from "../Domain/Brand.ts"
import type { Citation, Response, Source, SourceUrl, StoredBrandMention } from "../Domain/Response.ts"
import type { Monitor } from "../Domain/Monitor.ts"
import type { Organization } from "../Domain/Organization.ts"
import type { Project } from "../Domain/Project.ts"
import type { JobStatus, RunStatus, RunTrigger } from "../Domain/Run.ts"
import type { Platform } from "../Domain/Platform.ts"
import type { Tag } from "../Domain/Tag.ts"
import type { SeenWorker } from "../Collector/Workers.ts"

/**
 * The in-memory database behind the in-memory repositories: plain tables in one registry by name, id
 * sequences, and the ownership cascade of migrations/0001_data_model.ts. It is the reference the SQL
 * repositories are tested against, so it keeps the same rules (case-insensitive tag names, cascades), not
 * shortcuts. An area's own table needs no line here: it is named where it is used (Memory/ProjectTable.ts),
 * and goes with its project through `cascadeFromProject`.
 */

export interface PromptRow {
  readonly id: number
  readonly project_id: number
  readonly monitor_id: number
  readonly text: string
  readonly created_at: Date
  readonly updated_at: Date
}

export interface TagRow extends Tag {
  readonly project_id: number
}

export interface BrandRow {
  readonly id: number
  readonly project_id: number
  readonly name: string
  readonly aliases: ReadonlyArray<string>
  readonly domains: ReadonlyArray<string>
  readonly classification: Classification
  readonly created_at: Date
  readonly updated_at: Date
}

export interface SegmentRow extends Segment {}

export interface SourceRow extends Source {
  readonly project_id: number
}

export interface SourceUrlRow extends SourceUrl {
  readonly project_id: number
}

export interface ResponseRow extends Response {
  readonly project_id: number
}

export interface CitationRow extends Citation {}

export interface BrandMentionRow extends StoredBrandMention {
  readonly project_id: number
}

export interface RunRow {
  readonly id: number
  readonly project_id: number
  readonly monitor_id: number
  readonly slot: Date
  readonly trigger: RunTrigger
  readonly status: RunStatus
  readonly completed_at: Date | null
  readonly created_at: Date
  readonly updated_at: Date
}

/** A collector job: only what the in-memory runs repository shows (its status), not the worker's lease. */
export interface JobRow {
  readonly id: number
  readonly run_id: number
  readonly prompt_id: number
  readonly platform: Platform
  readonly slot: Date
  readonly status: JobStatus
  readonly reason: string | null
  /** Asked of the simulated platform: its monitor's `simulated` when the run was made. */
  readonly simulated: boolean
}

/**
 * The tables of the data model (migrations 0001 and 0004), by their SQL names, with what each holds: rows
 * by id, pairs of a join table as `${left}:${right}`, the collector's heartbeats by worker id.
 */
export interface DataModel {
  readonly organizations: Map<number, Organization>
  readonly api_keys: Map<number, ApiKey & { readonly key_hash: string }>
  readonly projects: Map<number, Project>
  readonly monitors: Map<number, Monitor>
  readonly prompts: Map<number, PromptRow>
  readonly tags: Map<number, TagRow>
  /** `${prompt_id}:${tag_id}` */
  readonly prompt_tags: Set<string>
  readonly brands: Map<number, BrandRow>
  readonly segments: Map<number, SegmentRow>
  /** `${brand_id}:${segment_id}` */
  readonly brand_segments: Set<string>
  readonly sources: Map<number, SourceRow>
  readonly source_urls: Map<number, SourceUrlRow>
  readonly responses: Map<number, ResponseRow>
  readonly citations: Map<number, CitationRow>
  readonly brand_mentions: Map<number, BrandMentionRow>
  readonly collector_runs: Map<number, RunRow>
  readonly collector_jobs: Map<number, JobRow>
  readonly collector_workers: Map<string, SeenWorker>
}

const joinTables: ReadonlyArray<string> = ["prompt_tags", "brand_segments"]

export class MemoryTables {
  /** Every table, by name: made empty the first time it is named, so an area's own table needs no line here. */
  private readonly tables = new Map<string, Map<unknown, unknown> | Set<string>>()
  /** The tables whose rows go with their project (an area's `project_id ... ON DELETE CASCADE`), with how one row goes. */
  private readonly ownedByProject = new Map<string, (id: number) => void>()
  private readonly sequences = new Map<string, number>()

  /** A table of the data model, or an area's own table of `Row`s by id: `db.table<NoteRow>("notes")`. */
  table<Name extends keyof DataModel>(name: Name): DataModel[Name]
  table<Row>(name: string): Map<number, Row>
  table(name: string): Map<unknown, unknown> | Set<string> {
    let table = this.tables.get(name)
    if (table === undefined) {
      table = joinTables.includes(name) ? new Set<string>() : new Map<unknown, unknown>()
      this.tables.set(name, table)
    }
    return table
  }

  /**
   * Rows of `table` (with a `project_id`) go when their project goes, each by `remove` (which takes what
   * hangs on it too): the in-memory twin of the foreign key's `ON DELETE CASCADE`.
   */
  cascadeFromProject(table: string, remove: (id: number) => void) {
    this.ownedByProject.set(table, remove)
  }

  nextId(table: string): number {
    const next = (this.sequences.get(table) ?? 0) + 1
    this.sequences.set(table, next)
    return next
  }

  /** The database clock: millisecond precision, like timestamptz(3). */
  now(): Date {
    return new Date()
  }

  /** The ids of the tags a prompt carries now. */
  tagsOfPrompt(promptId: number): ReadonlySet<number> {
    const tags = new Set<number>()
    for (const key of this.table("prompt_tags")) {
      const [prompt, tag] = key.split(":").map(Number)
      if (prompt === promptId) tags.add(tag!)
    }
    return tags
  }

  deleteTag(id: number) {
    this.table("tags").delete(id)
    for (const key of this.table("prompt_tags")) if (key.endsWith(`:${id}`)) this.table("prompt_tags").delete(key)
  }

  deletePrompt(id: number) {
    this.table("prompts").delete(id)
    for (const key of this.table("prompt_tags")) if (key.startsWith(`${id}:`)) this.table("prompt_tags").delete(key)
    for (const response of [...this.table("responses").values()]) if (response.prompt_id === id) this.deleteResponse(response.id)
    for (const job of [...this.table("collector_jobs").values()]) if (job.prompt_id === id) this.table("collector_jobs").delete(job.id)
  }

  deleteResponse(id: number) {
    this.table("responses").delete(id)
    for (const citation of [...this.table("citations").values()]) if (citation.response_id === id) this.table("citations").delete(citation.id)
    for (const mention of [...this.table("brand_mentions").values()]) if (mention.response_id === id) this.table("brand_mentions").delete(mention.id)
  }

  deleteBrand(id: number) {
    this.table("brands").delete(id)
    for (const key of this.table("brand_segments")) if (key.startsWith(`${id}:`)) this.table("brand_segments").delete(key)
    for (const mention of [...this.table("brand_mentions").values()]) if (mention.brand_id === id) this.table("brand_mentions").delete(mention.id)
    for (const project of this.table("projects").values()) {
      if (project.brand_id === id) this.table("projects").set(project.id, { ...project, brand_id: null })
    }
  }

  deleteSegment(id: number) {
    this.table("segments").delete(id)
    for (const key of this.table("brand_segments")) if (key.endsWith(`:${id}`)) this.table("brand_segments").delete(key)
  }

  deleteSource(id: number) {
    this.table("sources").delete(id)
    for (const url of [...this.table("source_urls").values()]) if (url.source_id === id) this.table("source_urls").delete(url.id)
    for (const citation of [...this.table("citations").values()]) if (citation.source_id === id) this.table("citations").delete(citation.id)
  }

  deleteMonitor(id: number) {
    this.table("monitors").delete(id)
    for (const prompt of [...this.table("prompts").values()]) if (prompt.monitor_id === id) this.deletePrompt(prompt.id)
    for (const run of [...this.table("collector_runs").values()]) {
      if (run.monitor_id !== id) continue
      this.table("collector_runs").delete(run.id)
      for (const job of [...this.table("collector_jobs").values()]) if (job.run_id === run.id) this.table("collector_jobs").delete(job.id)
    }
  }

  deleteProject(id: number) {
    this.table("projects").delete(id)
    for (const monitor of [...this.table("monitors").values()]) if (monitor.project_id === id) this.deleteMonitor(monitor.id)
    for (const tag of [...this.table("tags").values()]) if (tag.project_id === id) this.deleteTag(tag.id)
    for (const brand of [...this.table("brands").values()]) if (brand.project_id === id) this.deleteBrand(brand.id)
    for (const segment of [...this.table("segments").values()]) if (segment.project_id === id) this.deleteSegment(segment.id)
    for (const source of [...this.table("sources").values()]) if (source.project_id === id) this.deleteSource(source.id)
    for (const [name, remove] of this.ownedByProject) {
      for (const row of [...this.table<{ readonly id: number; readonly project_id: number }>(name).values()]) if (row.project_id === id) remove(row.id)
    }
  }

  deleteOrganization(id: number) {
    this.table("organizations").delete(id)
    for (const key of [...this.table("api_keys").values()]) if (key.organization_id === id) this.table("api_keys").delete(key.id)
    for (const project of [...this.table("projects").values()]) if (project.organization_id === id) this.deleteProject(project.id)
  }
}

export class MemoryStore extends Context.Tag("MemoryStore")<MemoryStore, MemoryTables>() {
  static readonly layer = Layer.sync(MemoryStore, () => new MemoryTables())
}

/** Sorts by id, the default list order. */
export const byId = <A extends { readonly id: number }>(rows: Iterable<A>): Array<A> =>
  [...rows].sort((a, b) => a.id - b.id)

export const pageOf = <A>(rows: ReadonlyArray<A>, window: { readonly offset: number; readonly limit: number }) => ({
  rows: rows.slice(window.offset, window.offset + window.limit),
  total: rows.length
})
