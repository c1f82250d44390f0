/** The shapes of the API's answers the dashboard reads (docs/api.md). */

export interface PageLink {
  readonly url: string | null
  readonly label: string
  readonly page: number | null
  readonly active: boolean
}

export interface PageMeta {
  readonly current_page: number
  readonly from: number | null
  readonly last_page: number
  readonly links: ReadonlyArray<PageLink>
  readonly path: string
  readonly per_page: number
  readonly to: number | null
  readonly total: number
}

/** The envelope of every list. */
export interface Paginated<T> {
  readonly data: ReadonlyArray<T>
  readonly links: { readonly first: string; readonly last: string; readonly prev: string | null; readonly next: string | null }
  readonly meta: PageMeta
}

export interface Data<T> {
  readonly data: T
}

export interface Me {
  readonly key: {
    readonly id: number
    readonly name: string
    readonly prefix: string
    readonly created_at: string
    readonly expires_at: string | null
    readonly last_used_at: string | null
  }
  readonly organization: { readonly id: number; readonly name: string }
  readonly abilities: ReadonlyArray<string>
  readonly projects: ReadonlyArray<{ readonly id: number; readonly name: string }>
}

export interface Project {
  readonly id: number
  readonly organization_id: number
  readonly name: string
  readonly domain: string | null
  readonly brand_id: number | null
}

export const platforms = [
  "chatgpt",
  "perplexity",
  "gemini",
  "grok",
  "copilot",
  "claude",
  "google_ai_mode",
  "google_ai_overview"
] as const
export type Platform = (typeof platforms)[number]

export const platformNames: Readonly<Record<Platform, string>> = {
  chatgpt: "ChatGPT",
  perplexity: "Perplexity",
  gemini: "Gemini",
  grok: "Grok",
  copilot: "Copilot",
  claude: "Claude",
  google_ai_mode: "Google AI Mode",
  google_ai_overview: "Google AI Overviews"
}

export const schedules = ["daily", "weekly", "manual"] as const

export interface Monitor {
  readonly id: number
  readonly project_id: number
  readonly name: string
  readonly country: string
  readonly platforms: ReadonlyArray<Platform>
  readonly schedule: (typeof schedules)[number]
  readonly active: boolean
  /** Answered by the simulated platform only, never by a provider (docs/simulated.md). */
  readonly simulated: boolean
  readonly created_at: string
  readonly updated_at: string
}

export interface Tag {
  readonly id: number
  readonly name: string
  readonly color: string
}

export interface Prompt {
  readonly id: number
  readonly monitor_id: number
  readonly text: string
  readonly tags: ReadonlyArray<Tag>
  readonly created_at: string
}

export const classifications = ["competitor", "other", "ignored"] as const
export type Classification = (typeof classifications)[number]

export interface Brand {
  readonly id: number
  readonly project_id: number
  readonly name: string
  readonly aliases: ReadonlyArray<string>
  readonly domains: ReadonlyArray<string>
  readonly classification: Classification
  readonly segment_ids: ReadonlyArray<number>
  readonly is_own?: boolean
}

export interface Segment {
  readonly id: number
  readonly name: string
}

export interface Response {
  readonly id: number
  readonly monitor_id: number
  readonly prompt_id: number
  readonly platform: Platform
  readonly country: string
  readonly text: string
  readonly status: "pending" | "analyzed" | "failed"
  readonly collected_at: string
  readonly analyzed_at: string | null
}

export interface Citation {
  readonly id: number
  readonly response_id: number
  readonly source_id: number
  readonly source_url_id: number
  readonly url: string
  readonly position: number
}

export interface BrandMention {
  readonly id: number
  readonly response_id: number
  readonly brand_id: number
  readonly position: number
  readonly sentiment_score: number
  readonly brand?: Brand
}

export interface JobCounts {
  readonly total: number
  readonly pending: number
  readonly running: number
  readonly succeeded: number
  readonly failed: number
  readonly skipped: number
}

export interface Run {
  readonly id: number
  readonly monitor_id: number
  readonly slot: string
  readonly trigger: "schedule" | "manual" | "missed" | "backfill"
  readonly status: "running" | "completed"
  readonly jobs: JobCounts
  readonly completed_at: string | null
  readonly created_at: string
}

export interface Interval95 {
  readonly low: number
  readonly high: number
}

export interface BrandRef {
  readonly id: number
  readonly name: string
  readonly classification: Classification
  readonly is_own: boolean
}

/** A row of GET /analytics/brands. */
export interface BrandRow {
  readonly brand: BrandRef
  readonly responses_count: number
  readonly mentioned_count: number
  readonly visibility: number | null
  readonly visibility_ci: Interval95 | null
  readonly visibility_change: number | null
  readonly visibility_change_significant: boolean
  readonly total_mentions: number
  readonly share_of_voice: number | null
  readonly share_of_voice_ci: Interval95 | null
  readonly share_of_voice_change: number | null
  readonly share_of_voice_change_significant: boolean
  readonly average_position: number | null
  readonly average_position_change: number | null
  readonly average_sentiment: number | null
  readonly average_sentiment_change: number | null
  readonly first_seen_on: string | null
  readonly last_seen_on: string | null
  /** The counts over the previous period, as their window counterparts; 0 when it holds nothing. */
  readonly previous_responses_count: number
  readonly previous_mentioned_count: number
  readonly previous_total_mentions: number
}

export interface SeriesPoint {
  readonly timestamp: string
  readonly value: number | null
  readonly count?: number
  readonly total?: number | null
}

export const brandMetrics = ["visibility", "share_of_voice", "average_position", "average_sentiment"] as const
export type BrandMetric = (typeof brandMetrics)[number]

/** GET /analytics/brands/time-series. */
export interface BrandSeries {
  readonly interval: Interval
  readonly metric: BrandMetric
  readonly series: ReadonlyArray<{ readonly brand: BrandRef; readonly data: ReadonlyArray<SeriesPoint> }>
}

/** A row of GET /analytics/prompts. */
export interface PromptRow {
  readonly prompt: { readonly id: number; readonly text: string; readonly monitor_id: number }
  readonly responses_count: number
  readonly own: {
    readonly mentioned_count: number
    readonly visibility: number | null
    readonly visibility_ci: Interval95 | null
    readonly average_position: number | null
  } | null
  readonly top_competitor: { readonly brand: BrandRef; readonly mentioned_count: number; readonly visibility: number | null } | null
  readonly brands_mentioned: number
}

interface SourceMeasures {
  readonly used_count: number
  readonly used_count_change: number
  readonly used_percentage: number
  readonly used_percentage_change: number
  readonly average_citations: number
  readonly average_citations_change: number
  readonly first_seen_on: string
  readonly last_seen_on: string
}

export interface SourceRow extends SourceMeasures {
  readonly source: { readonly id: number; readonly domain: string }
}

export interface SourceUrlRow extends SourceMeasures {
  readonly source_url: { readonly id: number; readonly source_id: number; readonly url: string }
}

export const intervals = ["day", "week", "month"] as const
export type Interval = (typeof intervals)[number] | "year"

/** GET /analytics/source-url-usage-time-series. */
export interface UrlSeries {
  readonly interval: Interval
  readonly series: ReadonlyArray<{
    readonly source_url: { readonly id: number; readonly source_id: number; readonly url: string }
    readonly data: ReadonlyArray<SeriesPoint>
  }>
}

/** A key of GET /api-keys. */
export interface ApiKey {
  readonly id: number
  readonly name: string
  readonly prefix: string
  readonly abilities: ReadonlyArray<string>
  readonly project_ids: ReadonlyArray<number> | null
  readonly expires_at: string | null
  readonly last_used_at: string | null
  readonly revoked: boolean
  readonly created_at: string
}
