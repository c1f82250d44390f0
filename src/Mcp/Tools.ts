import { Effect, Schema } from "effect"
import { brandMetrics, intervals } from "../Analytics/Analytics.ts"
import type { Client } from "../Client/Client.ts"
import type { Ability } from "../Domain/Ability.ts"
import { Forbidden } from "../Domain/Errors.ts"
import { platforms } from "../Domain/Platform.ts"
import { Monitor as MonitorSchema } from "../Domain/Monitor.ts"
import { Prompt as PromptSchema } from "../Domain/Prompt.ts"
import { Response as ResponseSchema } from "../Domain/Response.ts"
import { Run as RunSchema } from "../Domain/Run.ts"
import { table } from "./Table.ts"

/**
 * The tools of the MCP server. Each is a thin call of the API through the typed client, with the key
 * of the assistant's user: the same abilities, projects and numbers as the REST API, nothing computed
 * here but the layout (a small text table for the assistant, the API's rows as structured content).
 */
export interface ToolResult {
  readonly text: string
  readonly structured: Record<string, unknown>
}

/** A tool failing with a message meant for the assistant (it becomes a tool error, never a crash). */
export class ToolFailure extends Schema.TaggedError<ToolFailure>()("ToolFailure", { message: Schema.String }) {}

export interface ToolContext {
  readonly client: Client
  /** The project of a call: the one named, or the only one the key reaches (or the configured one). */
  readonly project: (named: number | undefined) => Effect.Effect<number, unknown>
}

export interface ToolDefinition<A, I> {
  readonly name: string
  readonly title: string
  readonly description: string
  /** What the tool changes, for the assistant's client (which may ask its user first): nothing unless said. */
  readonly writes?: { readonly idempotent: boolean }
  readonly input: Schema.Schema<A, I>
  readonly run: (input: A, context: ToolContext) => Effect.Effect<ToolResult, unknown>
}

const tool = <A, I>(definition: ToolDefinition<A, I>): ToolDefinition<unknown, unknown> => definition as any

// ---------------------------------------------------------------------------
// Inputs
// ---------------------------------------------------------------------------

const ProjectId = Schema.optional(Schema.Int.pipe(Schema.positive()).annotations({
  description: "The project (see list_projects). May be left out when the key reaches exactly one project."
}))

const DateText = (description: string) =>
  Schema.String.pipe(Schema.pattern(/^\d{4}-\d{2}-\d{2}$/)).annotations({
    description: `${description} A UTC calendar day, YYYY-MM-DD.`,
    jsonSchema: { type: "string", format: "date", pattern: "^\\d{4}-\\d{2}-\\d{2}$", description: `${description} A UTC calendar day, YYYY-MM-DD.` }
  })

const Ids = (description: string) => Schema.optional(Schema.Array(Schema.Int.pipe(Schema.positive())).annotations({ description }))

/** The window and filters every analytics tool takes, as the analytics endpoints do. */
const Window = {
  project_id: ProjectId,
  start_date: DateText("First day of the period (inclusive)."),
  end_date: DateText("Last day of the period (inclusive), not after today. The previous period (for changes) is as long, right before."),
  platforms: Schema.optional(Schema.Array(Schema.Literal(...platforms)).annotations({ description: "Only answers of these AI platforms." })),
  countries: Schema.optional(
    Schema.Array(Schema.String.pipe(Schema.pattern(/^[A-Za-z]{2}$/))).annotations({ description: "Only answers collected in these countries (ISO 3166-1 alpha-2, e.g. US, DE)." })
  ),
  monitors: Ids("Only answers of these monitors."),
  tags: Ids("Only answers to prompts carrying any of these tags.")
}

type WindowInput = Schema.Struct.Type<typeof Window>

/** The filters of a query (analytics, responses) from a tool's input. */
const filterQuery = (input: Pick<WindowInput, "platforms" | "countries" | "monitors" | "tags">) => ({
  ...(input.platforms === undefined ? {} : { "platforms[]": input.platforms }),
  ...(input.countries === undefined ? {} : { "countries[]": input.countries }),
  ...(input.monitors === undefined ? {} : { "monitors[]": input.monitors.map(String) }),
  ...(input.tags === undefined ? {} : { "tags[]": input.tags.map(String) })
})

/** The query of an analytics endpoint from a tool's window. */
const windowQuery = (input: WindowInput) => ({ start_date: input.start_date, end_date: input.end_date, ...filterQuery(input) })

const projectHeader = (project: number) => ({ "service-project-id": String(project) })

// ---------------------------------------------------------------------------
// Formatting
// ---------------------------------------------------------------------------

const pct = (value: number | null) => value === null ? "–" : `${value}%`
const signed = (value: number | null, unit = "") => value === null ? "–" : `${value > 0 ? "+" : ""}${value}${unit}`
const ci = (interval: { readonly low: number; readonly high: number } | null) => interval === null ? "–" : `${interval.low}–${interval.high}%`

const pageNote = (meta: { readonly current_page: number; readonly last_page: number; readonly total: number }) =>
  meta.last_page > meta.current_page ? `\n(page ${meta.current_page} of ${meta.last_page}, ${meta.total} rows: ask for page ${meta.current_page + 1} for more)` : ""

// ---------------------------------------------------------------------------
// The tools
// ---------------------------------------------------------------------------

const listProjects = tool({
  name: "list_projects",
  title: "List projects",
  description: "Lists the projects (brands being monitored) this key can reach, with their ids. Call it first when a tool needs a project_id and you do not know it.",
  input: Schema.Struct({}),
  run: (_input, { client }) =>
    Effect.map(client.projects.list({ urlParams: { per_page: "100" } }), (page) => ({
      text: table(["id", "name", "domain", "own brand id"], page.data.map((p) => [p.id, p.name, p.domain ?? "–", p.brand_id ?? "–"])),
      structured: { projects: page.data.map((p) => ({ id: p.id, name: p.name, domain: p.domain, brand_id: p.brand_id })) }
    }))
})

const brandVisibility = tool({
  name: "brand_visibility",
  title: "Brand visibility and share of voice",
  description:
    "How visible each brand of a project is in AI answers over a period: visibility (% of analyzed answers mentioning the brand, " +
    "with the counts behind it and a 95% confidence interval), share of voice (% of all brand mentions), average position (1 = named first) " +
    "and sentiment (0-100, 50 neutral), each with its change against the previous period of the same length and whether the change is " +
    "statistically significant. Filters narrow which answers count; `brands` only chooses rows. The own brand is marked.",
  input: Schema.Struct({
    ...Window,
    brands: Ids("Only these brands' rows (never changes the percentages)."),
    sort_by: Schema.optional(Schema.Literal("visibility", "share_of_voice", "mentioned_count", "average_position", "average_sentiment", "name").annotations({
      description: "Row order, descending (name: ascending). Default visibility."
    })),
    page: Schema.optional(Schema.Int.pipe(Schema.positive()).annotations({ description: "Page of 25 rows; default 1." }))
  }),
  run: (input, { client, project }) =>
    Effect.gen(function*() {
      const id = yield* project(input.project_id)
      const page = yield* client.analytics.brands({
        headers: projectHeader(id),
        urlParams: {
          ...windowQuery(input),
          ...(input.brands === undefined ? {} : { "brands[]": input.brands.map(String) }),
          sort_by: input.sort_by ?? "visibility",
          sort_order: input.sort_by === "name" ? "asc" : "desc",
          page: String(input.page ?? 1)
        }
      })
      const rows = page.data.map((row) => [
        row.brand.is_own ? `${row.brand.name} (own)` : row.brand.name,
        `${pct(row.visibility)} (${row.mentioned_count}/${row.responses_count})`,
        ci(row.visibility_ci),
        `${signed(row.visibility_change, " pts")}${row.visibility_change_significant ? " *" : ""}`,
        `${pct(row.share_of_voice)} (${row.mentioned_count}/${row.total_mentions})`,
        `${signed(row.share_of_voice_change, " pts")}${row.share_of_voice_change_significant ? " *" : ""}`,
        row.average_position ?? "–",
        row.average_sentiment ?? "–"
      ])
      return {
        text: `Project ${id}, ${input.start_date} to ${input.end_date}. * = significant change (95%).\n` +
          table(["brand", "visibility", "95% CI", "change", "share of voice", "change", "avg position", "sentiment"], rows) + pageNote(page.meta),
        structured: { project_id: id, rows: page.data, meta: page.meta }
      }
    })
})

const brandTrend = tool({
  name: "brand_trend",
  title: "Brand trend over time",
  description:
    "The trend of one metric for brands of a project, bucket by bucket (day, week, month or year): visibility or share of voice " +
    "(each point with its numerator and denominator) or average position / sentiment. Without `brands`, the brands most mentioned in the period.",
  input: Schema.Struct({
    ...Window,
    interval: Schema.Literal(...intervals).annotations({ description: "Bucket size: day, week (ISO, from Monday), month or year." }),
    metric: Schema.optional(Schema.Literal(...brandMetrics).annotations({ description: "Default visibility." })),
    brands: Ids("These brands' series (ids from brand_visibility)."),
    top_n: Schema.optional(Schema.Int.pipe(Schema.between(1, 50)).annotations({ description: "At most this many brands (default 5)." }))
  }),
  run: (input, { client, project }) =>
    Effect.gen(function*() {
      const id = yield* project(input.project_id)
      const { data } = yield* client.analytics.brandSeries({
        headers: projectHeader(id),
        urlParams: {
          ...windowQuery(input),
          ...(input.brands === undefined ? {} : { "brands[]": input.brands.map(String) }),
          interval: input.interval,
          metric: input.metric ?? "visibility",
          top_n: String(input.top_n ?? 5)
        }
      })
      const buckets = data.series[0]?.data.map((point) => point.timestamp.toISOString().slice(0, 10)) ?? []
      const proportion = data.metric === "visibility" || data.metric === "share_of_voice"
      const rows = buckets.map((bucket, i) => [
        bucket,
        ...data.series.map((series) => {
          const point = series.data[i]!
          return point.value === null ? "–" : proportion ? `${point.value}% (${point.count}/${point.total})` : `${point.value} (n=${point.count})`
        })
      ])
      return {
        text: `Project ${id}, ${data.metric} per ${data.interval}.\n` + table(["bucket", ...data.series.map((s) => s.brand.name)], rows),
        structured: {
          project_id: id,
          interval: data.interval,
          metric: data.metric,
          series: data.series.map((s) => ({ brand: s.brand, data: s.data.map((p) => ({ ...p, timestamp: p.timestamp.toISOString() })) }))
        }
      }
    })
})

const missingPrompts = tool({
  name: "prompts_missing_own_brand",
  title: "Prompts where the own brand is missing",
  description:
    "The prompts (buyer questions) whose AI answers in the period never mention the project's own brand, with how many answers there were " +
    "and which competitor is named most instead (and in how many answers). The gaps to work on first.",
  input: Schema.Struct({
    ...Window,
    page: Schema.optional(Schema.Int.pipe(Schema.positive()).annotations({ description: "Page of 100 prompts (least visible first); default 1." }))
  }),
  run: (input, { client, project }) =>
    Effect.gen(function*() {
      const id = yield* project(input.project_id)
      const page = yield* client.analytics.prompts({
        headers: projectHeader(id),
        urlParams: { ...windowQuery(input), sort_by: "own_visibility", sort_order: "asc", per_page: "100", page: String(input.page ?? 1) }
      })
      if (page.data.length > 0 && page.data.every((row) => row.own === null)) {
        return yield* new ToolFailure({ message: `Project ${id} has no own brand: set the project's brand_id to the brand that is yours.` })
      }
      const missing = page.data.filter((row) => row.own !== null && row.own.mentioned_count === 0)
      return {
        text: `Project ${id}, ${input.start_date} to ${input.end_date}: ${missing.length} prompt(s) without the own brand.\n` +
          table(
            ["prompt id", "prompt", "answers", "named instead", "in answers"],
            missing.map((row) => [
              row.prompt.id,
              row.prompt.text,
              row.responses_count,
              row.top_competitor?.brand.name ?? "(no brand)",
              row.top_competitor === null ? "–" : `${row.top_competitor.mentioned_count} (${pct(row.top_competitor.visibility)})`
            ])
          ) + pageNote(page.meta),
        structured: { project_id: id, prompts: missing, meta: page.meta }
      }
    })
})

const topSources = tool({
  name: "top_sources",
  title: "Top cited sources",
  description:
    "The sources AI answers cite most in the period, as domains or exact URLs: % of analyzed answers citing each (with the count), " +
    "citations per answer, change against the previous period, and when each was first and last cited.",
  input: Schema.Struct({
    ...Window,
    by: Schema.optional(Schema.Literal("domain", "url").annotations({ description: "Domains (default) or exact URLs." })),
    page: Schema.optional(Schema.Int.pipe(Schema.positive()).annotations({ description: "Page of 25 rows; default 1." }))
  }),
  run: (input, { client, project }) =>
    Effect.gen(function*() {
      const id = yield* project(input.project_id)
      const request = { headers: projectHeader(id), urlParams: { ...windowQuery(input), page: String(input.page ?? 1) } }
      const page = input.by === "url"
        ? Effect.map(client.analytics.sourceUrls(request), (p) => ({ meta: p.meta, rows: p.data.map((r) => ({ name: r.source_url.url, row: r })) }))
        : Effect.map(client.analytics.sources(request), (p) => ({ meta: p.meta, rows: p.data.map((r) => ({ name: r.source.domain, row: r })) }))
      const { meta, rows } = yield* page
      return {
        text: `Project ${id}, ${input.start_date} to ${input.end_date}.\n` +
          table(
            [input.by === "url" ? "url" : "domain", "cited in", "change", "citations/answer", "first seen", "last seen"],
            rows.map(({ name, row }) => [
              name,
              `${row.used_percentage}% (${row.used_count})`,
              signed(row.used_percentage_change, " pts"),
              row.average_citations,
              row.first_seen_on,
              row.last_seen_on
            ])
          ) + pageNote(meta),
        structured: { project_id: id, rows: rows.map(({ row }) => row), meta }
      }
    })
})

const sourceTrend = tool({
  name: "source_trend",
  title: "Cited URLs over time",
  description:
    "The trend of the URLs AI answers cite most in the period, bucket by bucket (day, week, month or year): for each URL, the % of the " +
    "bucket's analyzed answers citing it (0 in an empty bucket). Use top_sources for the totals and the change against the previous period.",
  input: Schema.Struct({
    ...Window,
    interval: Schema.Literal(...intervals).annotations({ description: "Bucket size: day, week (ISO, from Monday), month or year." }),
    top_n: Schema.optional(Schema.Int.pipe(Schema.between(1, 50)).annotations({ description: "At most this many URLs (default 5)." }))
  }),
  run: (input, { client, project }) =>
    Effect.gen(function*() {
      const id = yield* project(input.project_id)
      const { data } = yield* client.analytics.sourceUrlUsage({
        headers: projectHeader(id),
        urlParams: { ...windowQuery(input), interval: input.interval, top_n: String(input.top_n ?? 5) }
      })
      const buckets = data.series[0]?.data.map((point) => point.timestamp.toISOString().slice(0, 10)) ?? []
      const rows = buckets.map((bucket, i) => [bucket, ...data.series.map((series) => `${series.data[i]!.value}%`)])
      return {
        text: `Project ${id}, % of answers citing each URL per ${data.interval}.\n` +
          (data.series.length === 0 ? "No URL cited in the period." : table(["bucket", ...data.series.map((s) => s.source_url.url)], rows)),
        structured: {
          project_id: id,
          interval: data.interval,
          series: data.series.map((s) => ({ source_url: s.source_url, data: s.data.map((p) => ({ ...p, timestamp: p.timestamp.toISOString() })) }))
        }
      }
    })
})

const readAnswer = tool({
  name: "read_answer",
  title: "Read one AI answer",
  description: "One stored AI answer (response) in full: the question, platform, country, date, the answer text, the brands it mentions (position, sentiment) and the URLs it cites, in order.",
  input: Schema.Struct({
    project_id: ProjectId,
    response_id: Schema.Int.pipe(Schema.positive()).annotations({ description: "The response's id." })
  }),
  run: (input, { client, project }) =>
    Effect.gen(function*() {
      const id = yield* project(input.project_id)
      const headers = projectHeader(id)
      const { data: answer } = yield* client.responses.get({ path: { response: input.response_id }, headers })
      const [citations, mentions] = yield* Effect.all([
        client.responses.citations({ headers, urlParams: { response_id: answer.id, per_page: "100" } }),
        client.brandMentions.list({ headers, urlParams: { response_id: answer.id, per_page: "100" } })
      ], { concurrency: 2 })
      const text = [
        `Response ${answer.id} (${answer.platform}, ${answer.country}, ${answer.collected_at.toISOString()}) to prompt ${answer.prompt_id}:`,
        answer.text,
        "",
        "Brands mentioned:",
        table(["brand id", "position", "sentiment"], mentions.data.map((m) => [m.brand_id, m.position, m.sentiment_score])),
        "",
        "Citations:",
        table(["#", "url"], citations.data.map((c, i) => [i + 1, c.url]))
      ].join("\n")
      return {
        text,
        structured: {
          project_id: id,
          response: { ...answer, collected_at: answer.collected_at.toISOString() },
          mentions: mentions.data,
          citations: citations.data.map((c) => c.url)
        }
      }
    })
})

const PageNumber = (size: number) => Schema.optional(Schema.Int.pipe(Schema.positive()).annotations({ description: `Page of ${size} rows; default 1.` }))

const listMonitors = tool({
  name: "list_monitors",
  title: "List monitors",
  description: "The monitors of a project: which AI platforms each asks, from which country, how often (daily or weekly), and whether it is active " +
    "or simulated. A monitor holds the prompts; run_monitor runs one now, list_runs shows its runs.",
  input: Schema.Struct({ project_id: ProjectId, page: PageNumber(100) }),
  run: (input, { client, project }) =>
    Effect.gen(function*() {
      const id = yield* project(input.project_id)
      const page = yield* client.monitors.list({ headers: projectHeader(id), urlParams: { per_page: "100", page: String(input.page ?? 1) } })
      return {
        text: `Project ${id}: ${page.meta.total} monitor(s).\n` +
          table(
            ["id", "name", "country", "platforms", "schedule", "active", "simulated"],
            page.data.map((m) => [m.id, m.name, m.country, m.platforms.join(", "), m.schedule, m.active ? "yes" : "no", m.simulated ? "yes" : "no"])
          ) + pageNote(page.meta),
        structured: { project_id: id, monitors: page.data.map((monitor) => Schema.encodeSync(MonitorSchema)(monitor)), meta: page.meta }
      }
    })
})

const runRow = (run: Schema.Schema.Type<typeof RunSchema>) => [
  run.id,
  run.slot.toISOString(),
  run.trigger,
  run.status,
  `${run.jobs.succeeded}/${run.jobs.total} answered, ${run.jobs.pending + run.jobs.running} waiting, ${run.jobs.failed} failed, ${run.jobs.skipped} skipped`,
  run.blocked_platforms.length === 0 ? "–" : run.blocked_platforms.map((b) => `${b.platform} (${b.reason})`).join("; ")
]
const runHead = ["run id", "slot", "trigger", "status", "jobs", "blocked platforms"]
const runJson = (run: Schema.Schema.Type<typeof RunSchema>) => Schema.encodeSync(RunSchema)(run)

const listRuns = tool({
  name: "list_runs",
  title: "List a monitor's runs",
  description: "The collector's runs of one monitor, newest first: when each was due, what triggered it (schedule, manual, missed), whether it is " +
    "completed, how many of its questions (one per prompt × platform) were answered, are waiting, failed or were skipped, and the platforms " +
    "no worker can ask.",
  input: Schema.Struct({
    project_id: ProjectId,
    monitor_id: Schema.Int.pipe(Schema.positive()).annotations({ description: "The monitor (see list_monitors)." }),
    page: PageNumber(25)
  }),
  run: (input, { client, project }) =>
    Effect.gen(function*() {
      const id = yield* project(input.project_id)
      const page = yield* client.runs.list({ headers: projectHeader(id), path: { monitor: input.monitor_id }, urlParams: { page: String(input.page ?? 1) } })
      return {
        text: `Monitor ${input.monitor_id}: ${page.meta.total} run(s).\n` + table(runHead, page.data.map(runRow)) + pageNote(page.meta),
        structured: { project_id: id, runs: page.data.map((run) => runJson(run)), meta: page.meta }
      }
    })
})

const searchAnswers = tool({
  name: "search_answers",
  title: "Search AI answers",
  description: "Finds stored AI answers (responses) of a project by their text and filters: `q` keeps the answers containing every " +
    "word of it (any case, inside longer words too), with a period, platforms, countries, monitors, tags, one prompt. Newest first, " +
    "25 a page, each with the start of its text; read_answer gives one in full with its mentions and citations.",
  input: Schema.Struct({
    project_id: ProjectId,
    q: Schema.optional(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(200)).annotations({
      description: "Words the answer's text must all contain, e.g. \"hubspot pricing\"."
    })),
    start_date: Schema.optional(DateText("First day (inclusive) of collection; with end_date.")),
    end_date: Schema.optional(DateText("Last day (inclusive) of collection; with start_date.")),
    platforms: Window.platforms,
    countries: Window.countries,
    monitors: Window.monitors,
    tags: Window.tags,
    prompt_id: Schema.optional(Schema.Int.pipe(Schema.positive()).annotations({ description: "Only answers to this prompt." })),
    page: PageNumber(25)
  }),
  run: (input, { client, project }) =>
    Effect.gen(function*() {
      const id = yield* project(input.project_id)
      if ((input.start_date === undefined) !== (input.end_date === undefined)) {
        return yield* new ToolFailure({ message: "Give start_date and end_date together, or neither." })
      }
      const page = yield* client.responses.list({
        headers: projectHeader(id),
        urlParams: {
          ...(input.start_date === undefined ? {} : { start_date: input.start_date, end_date: input.end_date! }),
          ...filterQuery(input),
          ...(input.prompt_id === undefined ? {} : { prompt_id: input.prompt_id }),
          ...(input.q === undefined ? {} : { q: input.q }),
          sort_by: "collected_at",
          sort_order: "desc",
          page: String(input.page ?? 1)
        }
      })
      const excerpt = (text: string) => text.length > 160 ? `${text.slice(0, 160)}…` : text
      const meta = page.meta
      return {
        text: `Project ${id}: ${"total" in meta ? meta.total : page.data.length} answer(s).\n` +
          table(
            ["response id", "collected", "platform", "country", "prompt id", "answer"],
            page.data.map((r) => [r.id, r.collected_at.toISOString().slice(0, 16), r.platform, r.country, r.prompt_id, excerpt(r.text)])
          ) + ("total" in meta ? pageNote(meta) : ""),
        structured: { project_id: id, responses: page.data.map((response) => Schema.encodeSync(ResponseSchema)(response)), meta }
      }
    })
})

const createPrompt = tool({
  name: "create_prompt",
  title: "Create a prompt",
  description: "Adds a prompt (a question buyers ask AI platforms) to a monitor, which will ask it on each of its platforms from its next run. " +
    "`tags` are tag names: existing tags of the project are used, missing ones are created first. Needs a key with prompts:write, " +
    "monitors:read and tags:read (and tags:write to create tags).",
  writes: { idempotent: false },
  input: Schema.Struct({
    project_id: ProjectId,
    monitor_id: Schema.Int.pipe(Schema.positive()).annotations({ description: "The monitor that will ask it (see list_monitors)." }),
    text: Schema.String.pipe(Schema.minLength(1)).annotations({ description: "The question, as a buyer would ask it." }),
    tags: Schema.optional(
      Schema.Array(Schema.String.pipe(Schema.minLength(1))).annotations({ description: "Tag names, e.g. [\"pricing\", \"non-branded\"]." })
    )
  }),
  run: (input, { client, project }) =>
    Effect.gen(function*() {
      const id = yield* project(input.project_id)
      const headers = projectHeader(id)
      const wanted = [...new Set((input.tags ?? []).map((name) => name.trim()))]
      const existing = wanted.length === 0 ? [] : yield* allTags(client, headers)
      const byName = new Map(existing.map((tag) => [tag.name.toLowerCase(), tag]))
      const missing = wanted.filter((name) => !byName.has(name.toLowerCase()))
      // What would refuse the prompt is checked before a tag is made: the key's abilities, the monitor.
      const { abilities } = (yield* client.me.me()).data
      const needs: ReadonlyArray<Ability> = missing.length > 0 ? ["prompts:write", "tags:write"] : ["prompts:write"]
      for (const needed of needs) {
        if (!abilities.includes(needed)) return yield* new Forbidden({ requiredAbility: needed })
      }
      yield* client.monitors.get({ headers, path: { monitor: input.monitor_id } })
      const created: Array<string> = []
      const tagIds: Array<number> = []
      for (const name of wanted) {
        const found = byName.get(name.toLowerCase())
        if (found !== undefined) {
          tagIds.push(found.id)
          continue
        }
        const tag = (yield* client.tags.create({ headers, payload: { name } })).data
        created.push(tag.name)
        tagIds.push(tag.id)
      }
      const prompt = (yield* client.prompts.create({ headers, payload: { monitor_id: input.monitor_id, text: input.text, tags: tagIds } })).data
      return {
        text: `Created prompt ${prompt.id} in monitor ${prompt.monitor_id}: "${prompt.text}"` +
          (prompt.tags.length === 0 ? "" : `, tagged ${prompt.tags.map((t) => t.name).join(", ")}`) +
          (created.length === 0 ? "." : ` (new tags: ${created.join(", ")}).`),
        structured: { project_id: id, prompt: Schema.encodeSync(PromptSchema)(prompt), created_tags: created }
      }
    })
})

/** Every tag of the project, page by page. */
const allTags = (client: Client, headers: ReturnType<typeof projectHeader>) =>
  Effect.gen(function*() {
    const tags: Array<{ readonly id: number; readonly name: string }> = []
    for (let page = 1;; page++) {
      const { data, meta } = yield* client.tags.list({ headers, urlParams: { per_page: "100", page: String(page) } })
      tags.push(...data)
      if (meta.current_page >= meta.last_page) return tags
    }
  })

const runMonitor = tool({
  name: "run_monitor",
  title: "Run a monitor now",
  description: "Starts a run of a monitor now, whatever its schedule: each of its prompts is asked on each of its platforms by the collector " +
    "shortly after. Answers the run; follow it with list_runs. Platforms no worker can ask are named. Needs a key with monitors:write.",
  writes: { idempotent: false },
  input: Schema.Struct({
    project_id: ProjectId,
    monitor_id: Schema.Int.pipe(Schema.positive()).annotations({ description: "The monitor to run (see list_monitors)." })
  }),
  run: (input, { client, project }) =>
    Effect.gen(function*() {
      const id = yield* project(input.project_id)
      const { data: run } = yield* client.runs.trigger({ headers: projectHeader(id), path: { monitor: input.monitor_id } })
      return {
        text: `Started run ${run.id} of monitor ${run.monitor_id}: ${run.jobs.total} question(s) to ask.\n` + table(runHead, [runRow(run)]),
        structured: { project_id: id, run: runJson(run) }
      }
    })
})

export const tools: ReadonlyArray<ToolDefinition<unknown, unknown>> = [
  listProjects,
  brandVisibility,
  brandTrend,
  missingPrompts,
  topSources,
  sourceTrend,
  searchAnswers,
  readAnswer,
  listMonitors,
  listRuns,
  createPrompt,
  runMonitor
]
