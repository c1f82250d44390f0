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
 * The in-memory database behind the in-memory repositories: plain tables, id sequences, and the
 * ownership cascade of migrations/0001_data_model.ts. It is the reference the SQL repositories are
 * tested against, so it keeps the same rules (case-insensitive tag names, cascades), not shortcuts.
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

export class MemoryTables {
  readonly organizations = new Map<number, Organization>()
  readonly apiKeys = new Map<number, ApiKey & { readonly key_hash: string }>()
  readonly projects = new Map<number, Project>()
  readonly monitors = new Map<number, Monitor>()
  readonly prompts = new Map<number, PromptRow>()
  readonly tags = new Map<number, TagRow>()
  /** `${prompt_id}:${tag_id}` */
  readonly promptTags = new Set<string>()
  readonly brands = new Map<number, BrandRow>()
  readonly segments = new Map<number, SegmentRow>()
  /** `${brand_id}:${segment_id}` */
  readonly brandSegments = new Set<string>()
  readonly sources = new Map<number, SourceRow>()
  readonly sourceUrls = new Map<number, SourceUrlRow>()
  readonly responses = new Map<number, ResponseRow>()
  readonly citations = new Map<number, CitationRow>()
  readonly brandMentions = new Map<number, BrandMentionRow>()
  readonly runs = new Map<number, RunRow>()
  readonly jobs = new Map<number, JobRow>()
  /** The collector's heartbeats, by worker id. */
  readonly workers = new Map<string, SeenWorker>()
  private readonly sequences = new Map<string, number>()

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
    for (const key of this.promptTags) {
      const [prompt, tag] = key.split(":").map(Number)
      if (prompt === promptId) tags.add(tag!)
    }
    return tags
  }

  deleteTag(id: number) {
    this.tags.delete(id)
    for (const key of this.promptTags) if (key.endsWith(`:${id}`)) this.promptTags.delete(key)
  }

  deletePrompt(id: number) {
    this.prompts.delete(id)
    for (const key of this.promptTags) if (key.startsWith(`${id}:`)) this.promptTags.delete(key)
    for (const response of [...this.responses.values()]) if (response.prompt_id === id) this.deleteResponse(response.id)
    for (const job of [...this.jobs.values()]) if (job.prompt_id === id) this.jobs.delete(job.id)
  }

  deleteResponse(id: number) {
    this.responses.delete(id)
    for (const citation of [...this.citations.values()]) if (citation.response_id === id) this.citations.delete(citation.id)
    for (const mention of [...this.brandMentions.values()]) if (mention.response_id === id) this.brandMentions.delete(mention.id)
  }

  deleteBrand(id: number) {
    this.brands.delete(id)
    for (const key of this.brandSegments) if (key.startsWith(`${id}:`)) this.brandSegments.delete(key)
    for (const mention of [...this.brandMentions.values()]) if (mention.brand_id === id) this.brandMentions.delete(mention.id)
    for (const project of this.projects.values()) {
      if (project.brand_id === id) this.projects.set(project.id, { ...project, brand_id: null })
    }
  }

  deleteSegment(id: number) {
    this.segments.delete(id)
    for (const key of this.brandSegments) if (key.endsWith(`:${id}`)) this.brandSegments.delete(key)
  }

  deleteSource(id: number) {
    this.sources.delete(id)
    for (const url of [...this.sourceUrls.values()]) if (url.source_id === id) this.sourceUrls.delete(url.id)
    for (const citation of [...this.citations.values()]) if (citation.source_id === id) this.citations.delete(citation.id)
  }

  deleteMonitor(id: number) {
    this.monitors.delete(id)
    for (const prompt of [...this.prompts.values()]) if (prompt.monitor_id === id) this.deletePrompt(prompt.id)
    for (const run of [...this.runs.values()]) {
      if (run.monitor_id !== id) continue
      this.runs.delete(run.id)
      for (const job of [...this.jobs.values()]) if (job.run_id === run.id) this.jobs.delete(job.id)
    }
  }

  deleteProject(id: number) {
    this.projects.delete(id)
    for (const monitor of [...this.monitors.values()]) if (monitor.project_id === id) this.deleteMonitor(monitor.id)
    for (const tag of [...this.tags.values()]) if (tag.project_id === id) this.deleteTag(tag.id)
    for (const brand of [...this.brands.values()]) if (brand.project_id === id) this.deleteBrand(brand.id)
    for (const segment of [...this.segments.values()]) if (segment.project_id === id) this.deleteSegment(segment.id)
    for (const source of [...this.sources.values()]) if (source.project_id === id) this.deleteSource(source.id)
  }

  deleteOrganization(id: number) {
    this.organizations.delete(id)
    for (const key of [...this.apiKeys.values()]) if (key.organization_id === id) this.apiKeys.delete(key.id)
    for (const project of [...this.projects.values()]) if (project.organization_id === id) this.deleteProject(project.id)
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
