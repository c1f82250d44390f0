import type { Monitor, Paginated, PromptRow } from "../api/types.ts"
import { type Column, DataTable, type Sort } from "../components/DataTable.tsx"
import { FilterBar } from "../components/FilterBar.tsx"
import { ErrorNotice, Loading } from "../components/Notice.tsx"
import { Pager } from "../components/Pager.tsx"
import { analyticsQuery, readFilters } from "../filters.ts"
import { integer, number, percent } from "../format.ts"
import type { PageProps } from "../Layout.tsx"
import { useLoad } from "../load.ts"
import { href, Link, navigate, withQuery } from "../router.tsx"
import { projectData, useSession } from "../session-context.tsx"

const sorts = ["own_visibility", "responses_count", "brands_mentioned", "text"]

/** Whether the own brand went unnamed in every answer to the prompt. */
const missing = (row: PromptRow) => row.own !== null && row.own.mentioned_count === 0

/**
 * Per prompt: how often the own brand is named, and the competitor named most. Sorted by the own
 * brand's visibility, lowest first by default, so the prompts where it is missing come first.
 */
export const Prompts = ({ location }: PageProps) => {
  const session = useSession()
  const data = projectData(session)
  const filters = readFilters(location.query)
  const page = Math.max(1, Number(location.query.get("page")) || 1)
  const sortBy = sorts.includes(location.query.get("sort") ?? "") ? location.query.get("sort")! : "own_visibility"
  const defaultOrder = sortBy === "own_visibility" || sortBy === "text" ? "asc" : "desc"
  const order = location.query.get("order") === "asc" || location.query.get("order") === "desc" ? location.query.get("order") as "asc" | "desc" : defaultOrder
  const query = analyticsQuery(filters)

  const rows = useLoad(
    (signal) =>
      session.client.get<Paginated<PromptRow>>("/analytics/prompts", {
        project: true,
        signal,
        query: { ...query, sort_by: sortBy, sort_order: order, per_page: 25, page }
      }),
    [JSON.stringify(query), page, sortBy, order]
  )
  const monitors = useLoad(() => data.monitors().catch(() => [] as ReadonlyArray<Monitor>), [session.projectId])
  const monitorName = (id: number) => monitors.data?.find((monitor) => monitor.id === id)?.name ?? `Monitor ${id}`
  const set = (changes: Record<string, string | number | undefined>) => navigate(withQuery(location, changes), { replace: true })

  const columns: ReadonlyArray<Column<PromptRow>> = [
    {
      label: "Prompt",
      sortKey: "text",
      render: (row) => (
        <>
          <Link href={href("/answers", { prompt: row.prompt.id, monitor: row.prompt.monitor_id, start: filters.start, end: filters.end })}>
            {row.prompt.text}
          </Link>
          <span class="muted block">{monitorName(row.prompt.monitor_id)}</span>
        </>
      )
    },
    {
      label: "Own visibility",
      numeric: true,
      sortKey: "own_visibility",
      render: (row) =>
        row.own === null
          ? <span class="muted">no own brand</span>
          : (
            <>
              {missing(row) && <span class="badge badge-missing">missing</span>}
              <span data-field="own_visibility">{percent(row.own.visibility)}</span>
              {row.own.visibility_ci !== null && (
                <span class="muted block">{percent(row.own.visibility_ci.low)} – {percent(row.own.visibility_ci.high)}</span>
              )}
            </>
          )
    },
    { label: "Own position", numeric: true, render: (row) => number(row.own?.average_position ?? null) },
    {
      label: "Top competitor",
      render: (row) =>
        row.top_competitor === null
          ? <span class="muted">none named</span>
          : <>{row.top_competitor.brand.name} <span class="muted">({percent(row.top_competitor.visibility)})</span></>
    },
    { label: "Brands named", numeric: true, sortKey: "brands_mentioned", render: (row) => integer(row.brands_mentioned) },
    { label: "Answers", numeric: true, sortKey: "responses_count", render: (row) => integer(row.responses_count) }
  ]

  return (
    <div class="page">
      <h1>Prompts</h1>
      <FilterBar location={location} filters={filters} />
      <p class="lead">Where the answers name your brand, prompt by prompt. Prompts where it is <strong>missing</strong> come first.</p>
      {rows.error !== undefined && <ErrorNotice error={rows.error} what="read the prompt analytics" />}
      {rows.data === undefined ? rows.error === undefined && <Loading /> : (
        <section class="card">
          <DataTable
            caption="Prompts with answers in the period"
            columns={columns}
            rows={rows.data.data}
            rowKey={(row) => row.prompt.id}
            rowClass={(row) => (missing(row) ? "missing" : undefined)}
            sort={{ by: sortBy, order }}
            onSort={(sort: Sort) => set({ sort: sort.by, order: sort.order, page: undefined })}
            empty="No prompt has an answer in this period."
          />
          <Pager meta={rows.data.meta} onPage={(next) => set({ page: next })} label="Prompt pages" />
        </section>
      )}
    </div>
  )
}
