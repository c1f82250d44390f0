import type { ComponentChildren } from "preact"
import { useMemo } from "preact/hooks"
import type { Paginated, SourceRow, SourceUrlRow, UrlSeries } from "../api/types.ts"
import { intervals } from "../api/types.ts"
import { Change } from "../components/Change.tsx"
import { ChartCard } from "../components/ChartCard.tsx"
import { type Column, DataTable, type Sort } from "../components/DataTable.tsx"
import { FilterBar } from "../components/FilterBar.tsx"
import { ErrorNotice, Loading } from "../components/Notice.tsx"
import { Pager } from "../components/Pager.tsx"
import { type Line, TimeChart } from "../components/TimeChart.tsx"
import { analyticsQuery, previousPeriod, readFilters, readInterval } from "../filters.ts"
import { date, integer, number } from "../format.ts"
import type { PageProps } from "../Layout.tsx"
import { useLoad } from "../load.ts"
import { otherColor, otherDash } from "../palette.ts"
import { navigate, withQuery } from "../router.tsx"
import { useSession } from "../session-context.tsx"

/**
 * The sorts a header may ask for. "Share of answers" sorts by `used_count`, the count it is made of: every
 * row shares one denominator (the answers of the period), so the order is the exact percentages', where
 * the API's `used_percentage` sorts the whole percent shown, its ties by name.
 */
const measureSorts = [
  "used_count",
  "used_count_change",
  "used_percentage",
  "used_percentage_change",
  "average_citations",
  "average_citations_change",
  "first_seen_on",
  "last_seen_on"
]

/** Why a change is blank when the previous period holds no answer: the API's would be the whole value, as if new. */
const noPrevious = "No answer in the previous period: nothing to compare with."

/**
 * The measures of a source or URL row, in the API's order. With `previousEmpty` (the previous period
 * holds no answer under these filters), changes are blank, as the brands' are: against nothing, the
 * API's change would be the whole value.
 */
const measureColumns = <Row extends SourceRow | SourceUrlRow>(previousEmpty: boolean): ReadonlyArray<Column<Row>> => {
  const change = (value: number, props: { digits?: number; unit?: string }) =>
    <Change value={previousEmpty ? null : value} blank={noPrevious} {...props} />
  return [
    { label: "Answers citing", numeric: true, sortKey: "used_count", render: (row) => integer(row.used_count) },
    { label: "Change", numeric: true, sortKey: "used_count_change", render: (row) => change(row.used_count_change, { digits: 0 }) },
    { label: "Share of answers", numeric: true, sortKey: "used_count", render: (row) => `${row.used_percentage}%` },
    { label: "Change ", numeric: true, sortKey: "used_percentage_change", render: (row) => change(row.used_percentage_change, { digits: 0, unit: " pp" }) },
    { label: "Citations per answer", numeric: true, sortKey: "average_citations", render: (row) => number(row.average_citations) },
    { label: "Change  ", numeric: true, sortKey: "average_citations_change", render: (row) => change(row.average_citations_change, {}) },
    { label: "First seen", sortKey: "first_seen_on", class: "date", render: (row) => date(row.first_seen_on) },
    { label: "Last seen", sortKey: "last_seen_on", class: "date", render: (row) => date(row.last_seen_on) }
  ]
}

const sourceColumns = (previousEmpty: boolean): ReadonlyArray<Column<SourceRow>> => [
  { label: "Domain", sortKey: "domain", class: "name", render: (row) => row.source.domain },
  ...measureColumns<SourceRow>(previousEmpty)
]

const urlColumns = (previousEmpty: boolean): ReadonlyArray<Column<SourceUrlRow>> => [
  {
    label: "URL",
    sortKey: "url",
    class: "url",
    render: (row) => <a href={row.source_url.url} target="_blank" rel="noopener noreferrer nofollow">{row.source_url.url}</a>
  },
  ...measureColumns<SourceUrlRow>(previousEmpty)
]

/**
 * The domains and exact URLs the answers cite, with their measures (sortable, paginated), and how
 * often the most cited URLs were cited over time.
 */
export const Sources = ({ location }: PageProps) => {
  const session = useSession()
  const filters = readFilters(location.query)
  const interval = readInterval(location.query, filters)
  const view = location.query.get("view") === "urls" ? "urls" : "domains"
  const nameKey = view === "urls" ? "url" : "domain"
  const requested = location.query.get("sort") ?? ""
  const sortBy = measureSorts.includes(requested) || requested === nameKey ? requested : "used_count"
  const order = location.query.get("order") === "asc" ? "asc" : "desc"
  const page = Math.max(1, Number(location.query.get("page")) || 1)
  const query = analyticsQuery(filters)
  const window = JSON.stringify(query)

  // The view travels with its rows: while the other view loads, the rows shown still match their columns.
  const table = useLoad(
    (signal) =>
      session.client.get<Paginated<SourceRow | SourceUrlRow>>(view === "urls" ? "/analytics/source-urls" : "/analytics/sources", {
        project: true,
        signal,
        query: { ...query, sort_by: sortBy, sort_order: order, per_page: 25, page }
      }).then((answer) => ({ view, answer })),
    [window, view, sortBy, order, page]
  )
  const usage = useLoad(
    (signal) =>
      session.client.get<{ data: UrlSeries }>("/analytics/source-url-usage-time-series", {
        project: true,
        signal,
        query: { ...query, interval, top_n: 5 }
      }).then((answer) => answer.data),
    [window, interval]
  )
  // Whether the previous period holds any answer under these filters: its analyzed answers, counted by
  // the list of responses (same window rules and filters). Without `responses:read`, unknown: changes shown.
  const previous = previousPeriod(filters)
  const previousAnswers = useLoad(
    (signal) =>
      session.client.get<Paginated<unknown>>("/responses", {
        project: true,
        signal,
        query: { ...query, start_date: previous.start, end_date: previous.end, status: "analyzed", per_page: 1 }
      }).then((answer) => answer.meta.total),
    [window]
  )
  const previousEmpty = previousAnswers.data === 0
  const set = (changes: Record<string, string | number | undefined>) => navigate(withQuery(location, changes), { replace: true })
  const onSort = (sort: Sort) => set({ sort: sort.by, order: sort.order, page: undefined })

  return (
    <div class="page">
      <h1>Sources</h1>
      <FilterBar location={location} filters={filters} />
      <section class="card" aria-labelledby="sources-title">
        <header class="card-header">
          <h2 id="sources-title">{view === "urls" ? "Cited URLs" : "Cited domains"}</h2>
          <div class="toggle" role="group" aria-label="Rows">
            <button type="button" aria-pressed={view === "domains"} onClick={() => set({ view: undefined, sort: undefined, order: undefined, page: undefined })}>Domains</button>
            <button type="button" aria-pressed={view === "urls"} onClick={() => set({ view: "urls", sort: undefined, order: undefined, page: undefined })}>URLs</button>
          </div>
        </header>
        <p class="card-note">
          Changes compare with the previous period, {previous.start} to {previous.end} (UTC).
          {previousEmpty && " There is no answer in the previous period, so no change is shown."}
        </p>
        {table.error !== undefined && <ErrorNotice error={table.error} what="read the sources" />}
        {table.data === undefined ? table.error === undefined && <Loading /> : (
          <>
            {table.data.view === "urls"
              ? (
                <DataTable
                  class="wrap-headers sources-table"
                  caption="URLs cited in the period, with their changes"
                  columns={urlColumns(previousEmpty)}
                  rows={table.data.answer.data as ReadonlyArray<SourceUrlRow>}
                  rowKey={(row) => row.source_url.id}
                  sort={{ by: sortBy, order }}
                  onSort={onSort}
                  empty="No URL was cited in this period."
                />
              )
              : (
                <DataTable
                  class="wrap-headers sources-table"
                  caption="Domains cited in the period, with their changes"
                  columns={sourceColumns(previousEmpty)}
                  rows={table.data.answer.data as ReadonlyArray<SourceRow>}
                  rowKey={(row) => row.source.id}
                  sort={{ by: sortBy, order }}
                  onSort={onSort}
                  empty="No domain was cited in this period."
                />
              )}
            <Pager meta={table.data.answer.meta} onPage={(next) => set({ page: next })} label="Source pages" />
          </>
        )}
      </section>
      {usage.error !== undefined && <ErrorNotice error={usage.error} what="read the URL usage" />}
      {usage.data !== undefined && (
        <UsageCard
          usage={usage.data}
          controls={
            <label class="field-inline">
              <span>Interval</span>
              <select value={interval} onChange={(event) => set({ interval: event.currentTarget.value })}>
                {intervals.map((name) => <option key={name} value={name}>{name[0]!.toUpperCase() + name.slice(1)}</option>)}
              </select>
            </label>
          }
        />
      )}
    </div>
  )
}

const UsageCard = ({ usage, controls }: { readonly usage: UrlSeries; readonly controls: ComponentChildren }) => {
  const timestamps = useMemo(() => usage.series[0]?.data.map((point) => point.timestamp) ?? [], [usage])
  const lines = useMemo<ReadonlyArray<Line>>(
    () =>
      usage.series.map((item, index) => ({
        label: item.source_url.url,
        color: otherColor(index),
        dash: index === 0 ? undefined : otherDash(index),
        values: item.data.map((point) => point.value)
      })) as ReadonlyArray<Line>,
    [usage]
  )
  return (
    <ChartCard
      id="usage"
      title="Most cited URLs over time"
      controls={controls}
      note={<p class="card-note">Share of the answers of each {usage.interval} citing the URL.</p>}
      chart={usage.series.length === 0
        ? <p class="empty">Nothing was cited in this period.</p>
        : <TimeChart label="Share of answers citing each of the most cited URLs, over time" timestamps={timestamps} interval={usage.interval} lines={lines} />}
      table={
        <div class="table-wrap">
          <table>
            <caption>Share of answers citing each URL, by {usage.interval} (UTC)</caption>
            <thead>
              <tr>
                <th scope="col">{usage.interval[0]!.toUpperCase() + usage.interval.slice(1)} of</th>
                {usage.series.map((item) => <th key={item.source_url.id} scope="col" class="num url">{item.source_url.url}</th>)}
              </tr>
            </thead>
            <tbody>
              {timestamps.map((timestamp, row) => (
                <tr key={timestamp}>
                  <th scope="row">{date(timestamp)}</th>
                  {usage.series.map((item) => <td key={item.source_url.id} class="num">{item.data[row]?.value ?? "—"}%</td>)}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      }
    />
  )
}
