/**
 * What the bench scripts share: their options, the database of DATABASE_URL, the names that mark the
 * bench organization and project, and the row counts of the bench project.
 */
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import pg from "pg"

export const BENCH_ORGANIZATION = "Bench Organization"
/** The organization's name while a fill runs: a fill that did not finish is never mistaken for a complete one. */
export const BENCH_ORGANIZATION_FILLING = "Bench Organization (filling)"
export const BENCH_PROJECT = "Bench project"

export const SUGGESTED_URL = "postgres://postgres@127.0.0.1:5432/bvm_bench"

/** The `--name value` options of a script's arguments; a number out of range exits with a message. */
export const commandLine = (argv: ReadonlyArray<string>) => {
  const option = (name: string): string | undefined => {
    const index = argv.indexOf(`--${name}`)
    return index === -1 ? undefined : argv[index + 1]
  }
  const numberOption = (name: string, fallback: number, minimum: number): number => {
    const raw = option(name)
    if (raw === undefined) return fallback
    const value = Number(raw)
    if (!Number.isFinite(value) || value < minimum) {
      console.error(`--${name} needs a number of at least ${minimum}`)
      process.exit(2)
    }
    return value
  }
  return { numberOption, option }
}

/** DATABASE_URL, or exit with a hint: these scripts never fall back to the embedded database. */
export const requireDatabaseUrl = (script: string): string => {
  const url = process.env.DATABASE_URL?.trim()
  if (!url) {
    console.error(`${script} needs a PostgreSQL server: set DATABASE_URL, e.g.\n\n  DATABASE_URL=${SUGGESTED_URL} npm run ${script}\n`)
    process.exit(2)
  }
  return url
}

/** The URL with its password hidden, for printing. */
export const displayUrl = (url: string): string => {
  try {
    const parsed = new URL(url)
    if (parsed.password !== "") parsed.password = "***"
    return parsed.toString()
  } catch {
    return "(unparsable DATABASE_URL)"
  }
}

/** Creates the database of `url` when it does not exist, connecting to the server's `postgres` database. */
export const ensureDatabase = async (url: string): Promise<boolean> => {
  const parsed = new URL(url)
  const name = decodeURIComponent(parsed.pathname.replace(/^\//, ""))
  if (name === "" || name === "postgres") return false
  parsed.pathname = "/postgres"
  const admin = new pg.Client({ connectionString: parsed.toString() })
  await admin.connect()
  try {
    const found = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [name])
    if (found.rowCount !== 0) return false
    await admin.query(`CREATE DATABASE "${name.replaceAll("\"", "\"\"")}"`)
    return true
  } finally {
    await admin.end()
  }
}

export interface BenchProject {
  readonly organizationId: number
  readonly organizationName: string
  readonly projectId: number
}

/** The bench project (complete or not), if there is one. */
export const findBenchProject = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ organization_id: number; organization_name: string; project_id: number }>`
    SELECT o.id AS organization_id, o.name AS organization_name, p.id AS project_id
    FROM organizations o JOIN projects p ON p.organization_id = o.id
    WHERE o.name IN (${BENCH_ORGANIZATION}, ${BENCH_ORGANIZATION_FILLING}) AND p.name = ${BENCH_PROJECT}
    ORDER BY o.id LIMIT 1`
  const row = rows[0]
  return row === undefined
    ? undefined
    : { organizationId: row.organization_id, organizationName: row.organization_name, projectId: row.project_id } satisfies BenchProject
})

/** Rows of the bench project, table by table (one statement; exact counts). */
export const countRows = (projectId: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<Record<string, number>>`
      SELECT
        (SELECT count(*) FROM monitors WHERE project_id = ${projectId}) AS monitors,
        (SELECT count(*) FROM prompts WHERE project_id = ${projectId}) AS prompts,
        (SELECT count(*) FROM tags WHERE project_id = ${projectId}) AS tags,
        (SELECT count(*) FROM prompt_tags pt JOIN prompts p ON p.id = pt.prompt_id WHERE p.project_id = ${projectId}) AS prompt_tags,
        (SELECT count(*) FROM brands WHERE project_id = ${projectId}) AS brands,
        (SELECT count(*) FROM segments WHERE project_id = ${projectId}) AS segments,
        (SELECT count(*) FROM brand_segments bs JOIN brands b ON b.id = bs.brand_id WHERE b.project_id = ${projectId}) AS brand_segments,
        (SELECT count(*) FROM sources WHERE project_id = ${projectId}) AS sources,
        (SELECT count(*) FROM source_urls WHERE project_id = ${projectId}) AS source_urls,
        (SELECT count(*) FROM responses WHERE project_id = ${projectId}) AS responses,
        (SELECT count(*) FROM responses WHERE project_id = ${projectId} AND status = 'analyzed') AS analyzed_responses,
        (SELECT count(*) FROM citations c JOIN responses r ON r.id = c.response_id WHERE r.project_id = ${projectId}) AS citations,
        (SELECT count(*) FROM brand_mentions WHERE project_id = ${projectId}) AS brand_mentions,
        (SELECT to_char(min(collected_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD') FROM responses WHERE project_id = ${projectId}) AS first_day,
        (SELECT to_char(max(collected_at) AT TIME ZONE 'UTC', 'YYYY-MM-DD') FROM responses WHERE project_id = ${projectId}) AS last_day`
    return rows[0]! as unknown as Counts
  })

export interface Counts {
  readonly monitors: number
  readonly prompts: number
  readonly tags: number
  readonly prompt_tags: number
  readonly brands: number
  readonly segments: number
  readonly brand_segments: number
  readonly sources: number
  readonly source_urls: number
  readonly responses: number
  readonly analyzed_responses: number
  readonly citations: number
  readonly brand_mentions: number
  readonly first_day: string | null
  readonly last_day: string | null
}

export const formatCount = (n: number): string => n.toLocaleString("en-US")

/** The counts as a small two-column markdown table. */
export const countsTable = (counts: Counts): string => {
  const rows: Array<[string, string]> = [
    ["monitors", formatCount(counts.monitors)],
    ["prompts", formatCount(counts.prompts)],
    ["tags (prompt_tags)", `${formatCount(counts.tags)} (${formatCount(counts.prompt_tags)})`],
    ["brands (brand_segments)", `${formatCount(counts.brands)} (${formatCount(counts.brand_segments)})`],
    ["segments", formatCount(counts.segments)],
    ["sources", formatCount(counts.sources)],
    ["source_urls", formatCount(counts.source_urls)],
    ["responses (analyzed)", `${formatCount(counts.responses)} (${formatCount(counts.analyzed_responses)})`],
    ["citations", formatCount(counts.citations)],
    ["brand_mentions", formatCount(counts.brand_mentions)],
    ["days", `${counts.first_day ?? "-"} .. ${counts.last_day ?? "-"}`]
  ]
  return ["| table | rows |", "|---|---:|", ...rows.map(([name, value]) => `| ${name} | ${value} |`)].join("\n")
}
