import { HttpClient, HttpClientRequest } from "@effect/platform"
import { Effect, Redacted, Schema } from "effect"
import type { Answer, PlatformClient, Question } from "../Platform.ts"
import { answerOf, type Call, endpoint, malformed, send } from "./Http.ts"
import { googleCountryOf, languageOf } from "./Locale.ts"

/**
 * Copilot, Google AI Mode and Google AI Overviews have no public API: a SERP provider (SerpApi, or any
 * service answering in its JSON shape) reads them. One key and base URL serve all three.
 *
 * - `copilot`: engine `bing_copilot` (serpapi.com/bing-copilot-api); the answer is the body's
 *   `text_blocks` and `references`. The engine takes neither a location nor a language.
 * - `google_ai_mode`: engine `google_ai_mode` (serpapi.com/google-ai-mode-api), with `gl` and `hl`; the
 *   same fields.
 * - `google_ai_overview`: engine `google` (serpapi.com/ai-overview), with `gl` and `hl`; the same fields
 *   inside `ai_overview`. When Google loads the overview lazily, `ai_overview` holds only a `page_token`,
 *   fetched at once with engine `google_ai_overview` (serpapi.com/google-ai-overview-api; the token
 *   lives 4 minutes). A results page without an overview is an observation, not a failure: the answer
 *   is stored as `no_answer`, so that how often Google shows one can be counted.
 *
 * The text is every block rendered as a reader sees it (serpapi.com/blog/understanding-ai-overview-data-
 * from-serpapi): paragraphs and headings, list items with their titles (often the brand names) and
 * nested lists, tables as Markdown tables, code blocks fenced, expandable sections with their own blocks.
 */

export type SerpPlatform = "copilot" | "google_ai_mode" | "google_ai_overview"

export const serpPlatforms: ReadonlyArray<SerpPlatform> = ["copilot", "google_ai_mode", "google_ai_overview"]

export interface SerpSettings {
  readonly apiKey: Redacted.Redacted
  readonly baseUrl: string
}

interface ListItem {
  readonly title?: string | undefined
  readonly snippet?: string | undefined
  readonly list?: ReadonlyArray<ListItem> | undefined
}

/** What a list item has, and a text block too: a title, a snippet, a nested list. */
const listItemFields = {
  title: Schema.optional(Schema.String),
  snippet: Schema.optional(Schema.String),
  list: Schema.optional(Schema.Array(Schema.suspend((): Schema.Schema<ListItem> => ListItem)))
}

const ListItem: Schema.Schema<ListItem> = Schema.Struct(listItemFields)

/** A table: rows of cells (the first the header), or `headers` and rows. */
const Cell = Schema.Union(Schema.String, Schema.Number, Schema.Null)

interface TextBlock extends ListItem {
  readonly type?: string | undefined
  readonly headers?: ReadonlyArray<string | number | null> | undefined
  readonly table?: ReadonlyArray<ReadonlyArray<string | number | null>> | undefined
  readonly code?: string | undefined
  readonly language?: string | undefined
  readonly text_blocks?: ReadonlyArray<TextBlock> | undefined
}

const TextBlock: Schema.Schema<TextBlock> = Schema.Struct({
  ...listItemFields,
  type: Schema.optional(Schema.String),
  headers: Schema.optional(Schema.Array(Cell)),
  table: Schema.optional(Schema.Array(Schema.Array(Cell))),
  code: Schema.optional(Schema.String),
  language: Schema.optional(Schema.String),
  text_blocks: Schema.optional(Schema.Array(Schema.suspend(() => TextBlock)))
})

const Reference = Schema.Struct({ link: Schema.optional(Schema.String) })

/** The answer fields, at the top of the body or inside `ai_overview`. */
const AnswerFields = {
  text_blocks: Schema.optional(Schema.Array(TextBlock)),
  references: Schema.optional(Schema.Array(Reference))
}

export const SerpBody = Schema.Struct({
  ...AnswerFields,
  ai_overview: Schema.optional(Schema.Struct({
    ...AnswerFields,
    page_token: Schema.optional(Schema.String),
    error: Schema.optional(Schema.String)
  })),
  /** SerpApi reports some failures (no results, search failed) with a 200 and this field. */
  error: Schema.optional(Schema.String)
})

type SerpBody = typeof SerpBody.Type

const joinTitle = (title: string | undefined, snippet: string | undefined): string =>
  [title?.trim(), snippet?.trim()].filter((part): part is string => part !== undefined && part !== "").reduce(
    (line, part) => (line === "" ? part : /[:.?!]$/.test(line) ? `${line} ${part}` : `${line}: ${part}`),
    ""
  )

const listLines = (items: ReadonlyArray<ListItem>, depth: number): Array<string> =>
  items.flatMap((item) => {
    const line = joinTitle(item.title, item.snippet)
    return [...(line === "" ? [] : [`${"  ".repeat(depth)}- ${line}`]), ...listLines(item.list ?? [], depth + 1)]
  })

const cellText = (cell: string | number | null) => (cell === null ? "" : String(cell)).replace(/\|/g, "\\|").replace(/\s+/g, " ").trim()

const tableLines = (headers: ReadonlyArray<string | number | null> | undefined, rows: ReadonlyArray<ReadonlyArray<string | number | null>>) => {
  const [head, ...body] = headers === undefined ? rows : [headers, ...rows]
  if (head === undefined) return []
  const row = (cells: ReadonlyArray<string | number | null>) => `| ${cells.map(cellText).join(" | ")} |`
  return [row(head), `|${head.map(() => " --- ").join("|")}|`, ...body.map(row)]
}

/** The lines of some blocks, in order. */
const blockLines = (blocks: ReadonlyArray<TextBlock>): Array<string> =>
  blocks.flatMap((block) => {
    const lines: Array<string> = []
    const lead = joinTitle(block.title, block.snippet)
    if (lead !== "") lines.push(lead)
    if (block.list !== undefined) lines.push(...listLines(block.list, 0))
    if (block.table !== undefined) lines.push(...tableLines(block.headers, block.table))
    if (block.code !== undefined) lines.push(`\`\`\`${block.language ?? ""}`, block.code.replace(/\n$/, ""), "```")
    if (block.text_blocks !== undefined) lines.push(...blockLines(block.text_blocks))
    return lines
  })

/** The text of some blocks, one line each (docs/platforms.md, "SERP"). */
export const textOf = (blocks: ReadonlyArray<TextBlock>): string => blockLines(blocks).join("\n")

const readingOf = (fields: {
  readonly text_blocks?: ReadonlyArray<TextBlock> | undefined
  readonly references?: ReadonlyArray<typeof Reference.Type> | undefined
}) => ({
  text: textOf(fields.text_blocks ?? []),
  citations: (fields.references ?? []).flatMap((reference) => reference.link === undefined ? [] : [reference.link])
})

const engineOf: Record<SerpPlatform, string> = {
  copilot: "bing_copilot",
  google_ai_mode: "google_ai_mode",
  google_ai_overview: "google"
}

/** No AI answer for the query: Google showed no overview. */
const noAnswer: Answer = answerOf({ text: "", citations: [], state: "no_answer" })

export const makeSerp = (
  platform: SerpPlatform,
  settings: SerpSettings
): Effect.Effect<PlatformClient, never, HttpClient.HttpClient> =>
  Effect.map(HttpClient.HttpClient, (client) => {
    const call: Call = { platform, secrets: [settings.apiKey] }
    const search = (params: Record<string, string>) =>
      send(
        client,
        call,
        HttpClientRequest.get(endpoint(settings.baseUrl, "/search.json"), {
          urlParams: { ...params, api_key: Redacted.value(settings.apiKey) }
        }),
        SerpBody
      )

    /** An answer of the body's fields, or the failure SerpApi reported in a 200. */
    const answered = (body: SerpBody, fields: Parameters<typeof readingOf>[0]) =>
      body.error !== undefined ? Effect.fail(malformed(call, body.error)) : Effect.succeed(answerOf(readingOf(fields)))

    const ask = (question: Question) => {
      // Google's engines take the country (`gl`) and the language (`hl`); Bing Copilot takes neither.
      const locale: Record<string, string> = platform === "copilot"
        ? {}
        : { gl: googleCountryOf(question.country), hl: languageOf(question.country) }
      const first = search({ engine: engineOf[platform], q: question.prompt, ...locale })
      if (platform !== "google_ai_overview") return Effect.flatMap(first, (body) => answered(body, body))
      return Effect.flatMap(first, (body) => {
        if (body.error !== undefined) return Effect.fail(malformed(call, body.error))
        const overview = body.ai_overview
        if (overview === undefined) return Effect.succeed(noAnswer)
        if ((overview.text_blocks ?? []).length === 0 && overview.page_token !== undefined) {
          return Effect.flatMap(
            search({ engine: "google_ai_overview", page_token: overview.page_token }),
            // SerpApi nests the answer in `ai_overview` here too; a provider that does not is read as well.
            (next) => next.ai_overview?.error !== undefined && (next.ai_overview.text_blocks ?? []).length === 0
              ? Effect.succeed(noAnswer)
              : answered(next, next.ai_overview ?? next)
          )
        }
        if (overview.error !== undefined && (overview.text_blocks ?? []).length === 0) return Effect.succeed(noAnswer)
        return Effect.succeed(answerOf(readingOf(overview)))
      })
    }
    return { platform, ask }
  })
