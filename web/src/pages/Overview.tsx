import type { ComponentChildren } from "preact"
import { useEffect, useMemo } from "preact/hooks"
import type { Paginated } from "../api/types.ts"
import { type BrandMetric, type BrandRow, type BrandSeries, brandMetrics, intervals } from "../api/types.ts"
import { Change, type ChangeBasis, SignificanceKey } from "../components/Change.tsx"
import { ChartCard } from "../components/ChartCard.tsx"
import { type Column, DataTable } from "../components/DataTable.tsx"
import { FilterBar } from "../components/FilterBar.tsx"
import { ErrorNotice, Loading } from "../components/Notice.tsx"
import { Pager } from "../components/Pager.tsx"
import { type Bounds, type Line, TimeChart } from "../components/TimeChart.tsx"
import { WhiskerLegend, Whiskers } from "../components/Whiskers.tsx"
import { analyticsQuery, readFilters, readInterval } from "../filters.ts"
import { date, integer, number, percent } from "../format.ts"
import type { PageProps } from "../Layout.tsx"
import { useLoad } from "../load.ts"
import { otherColor, otherDash, ownColor } from "../palette.ts"
import { Link, navigate, withQuery } from "../router.tsx"
import { projectData, useSession } from "../session-context.tsx"
import { SMALL_SAMPLE, wilson } from "../stats.ts"

const metricNames: Readonly<Record<BrandMetric, string>> = {
  visibility: "Visibility",
  share_of_voice: "Share of voice",
  average_position: "Average position",
  average_sentiment: "Average sentiment"
}

const isProportion = (metric: BrandMetric) => metric === "visibility" || metric === "share_of_voice"

/** The value axis of each measure: percentages and sentiment within 0–100, positions from 1 (named first). */
const metricBounds: Readonly<Record<BrandMetric, Bounds>> = {
  visibility: { min: 0, max: 100 },
  share_of_voice: { min: 0, max: 100 },
  average_position: { min: 1 },
  average_sentiment: { min: 0, max: 100 }
}

/** Why a change is blank: the API gives none when either period has nothing to compare. */
const noChange = "No change: the previous period (or this one) has nothing to compare with."

/**
 * What each change of a brand row rests on: the two periods' counts (docs/dashboard.md, "Small samples").
 * Share of voice is flagged on the fewer of answers and all brands' mentions: mentions come in answers,
 * so 40 mentions in 10 answers are 10 answers' worth of evidence.
 */
const basisOf = {
  visibility: (row: BrandRow): ChangeBasis => ({
    current: row.responses_count,
    previous: row.previous_responses_count,
    previousCount: row.previous_mentioned_count,
    noun: "answers",
    sample: { current: row.responses_count, previous: row.previous_responses_count, noun: "answers" }
  }),
  share_of_voice: (row: BrandRow): ChangeBasis => ({
    current: row.total_mentions,
    previous: row.previous_total_mentions,
    previousCount: row.previous_mentioned_count,
    noun: "mentions",
    sample: {
      current: Math.min(row.responses_count, row.total_mentions),
      previous: Math.min(row.previous_responses_count, row.previous_total_mentions),
      noun: "answers or mentions"
    }
  }),
  /** A mean's sample: the brand's mentions (an answer mentions a brand once at most). */
  mean: (row: BrandRow): ChangeBasis => ({
    current: row.mentioned_count,
    previous: row.previous_mentioned_count,
    noun: "mentions",
    sample: { current: row.mentioned_count, previous: row.previous_mentioned_count, noun: `mentions of ${row.brand.name}` }
  })
}

/** The rule of the small-sample flag, in words, where the flag can show. */
const smallSampleKey = `“small sample”: fewer than ${SMALL_SAMPLE} answers in this period or the previous one (for share of voice, also fewer than ${SMALL_SAMPLE} mentions of all brands; for an average, fewer than ${SMALL_SAMPLE} mentions of the brand)`

const brandSorts = ["visibility", "share_of_voice", "average_position", "average_sentiment", "mentioned_count", "name"]

/** Whether a load is done, with its data or its error. */
const settled = (loaded: { readonly loading: boolean; readonly data: unknown; readonly error: unknown }) =>
  !loaded.loading && (loaded.data !== undefined || loaded.error !== undefined)

/** How many competitors the trend draws beside the own brand. */
const TREND_COMPETITORS = 4

/**
 * Visibility and share of voice per brand with their 95% intervals, the own brand's measures and
 * changes, and the trend of the own brand against the top competitors, for the chosen period and
 * filters. Everything comes from the brand analytics endpoints.
 */
export const Overview = ({ location }: PageProps) => {
  const session = useSession()
  const data = projectData(session)
  const filters = readFilters(location.query)
  const interval = readInterval(location.query, filters)
  const bands = location.query.get("bands") === "1"
  const metricParam = location.query.get("metric") as BrandMetric | null
  const metric: BrandMetric = metricParam !== null && brandMetrics.includes(metricParam) ? metricParam : "visibility"
  const page = Math.max(1, Number(location.query.get("page")) || 1)
  const sortBy = brandSorts.includes(location.query.get("sort") ?? "") ? location.query.get("sort")! : "visibility"
  const sortOrder = location.query.get("order") === "asc" ? "asc" : "desc"
  const query = analyticsQuery(filters)
  const window = JSON.stringify(query)

  const brands = useLoad(
    (signal) =>
      session.client.get<Paginated<BrandRow>>("/analytics/brands", {
        project: true,
        signal,
        query: { ...query, sort_by: sortBy, sort_order: sortOrder, per_page: 25, page }
      }),
    [window, page, sortBy, sortOrder]
  )

  // The own brand's row: on the table's page most often; otherwise asked for by itself.
  const ownOnPage = brands.data?.data.find((row) => row.brand.is_own)
  const ownElsewhere = brands.data !== undefined && !brands.loading && ownOnPage === undefined
  const ownFallback = useLoad(async (signal) => {
    if (!ownElsewhere) return null
    const project = await data.project()
    if (project.brand_id === null) return null
    const answer = await session.client.get<Paginated<BrandRow>>("/analytics/brands", {
      project: true,
      signal,
      query: { ...query, brands: [project.brand_id], per_page: 1 }
    })
    return answer.data[0] ?? null
  }, [window, ownElsewhere])
  const own = {
    data: ownOnPage ?? (ownElsewhere ? ownFallback.data : undefined),
    error: ownElsewhere ? ownFallback.error : undefined,
    settled: ownOnPage !== undefined || (ownElsewhere && settled(ownFallback)) || (brands.data === undefined && brands.error !== undefined)
  }

  // The own brand against the brands most named in the window.
  const trend = useLoad(async (signal) => {
    const get = (extra: Record<string, number | ReadonlyArray<number>>) =>
      session.client.get<{ data: BrandSeries }>("/analytics/brands/time-series", {
        project: true,
        signal,
        query: { ...query, interval, metric, ...extra }
      }).then((answer) => answer.data)
    const [project, top] = await Promise.all([data.project(), get({ top_n: TREND_COMPETITORS + 1 })])
    const ownId = project.brand_id
    const ownSeries = ownId === null ? [] : top.series.filter((series) => series.brand.id === ownId)
    const others = top.series.filter((series) => series.brand.id !== ownId).slice(0, TREND_COMPETITORS)
    if (ownId !== null && ownSeries.length === 0) ownSeries.push(...(await get({ brands: [ownId] })).series)
    return { ...top, series: [...ownSeries, ...others] }
  }, [window, interval, metric])

  const ready = settled(brands) && own.settled && settled(trend)
  useEffect(() => {
    if (ready) performance.mark("overview-drawn")
  }, [ready])

  const set = (changes: Record<string, string | number | undefined>) => navigate(withQuery(location, changes), { replace: true })

  return (
    <div class="page" data-ready={ready ? "true" : "false"} id="overview">
      <h1>Overview</h1>
      <FilterBar location={location} filters={filters} />
      {own.error !== undefined && <ErrorNotice error={own.error} what="read the own brand" />}
      {own.error === undefined && <OwnBrand row={own.data} loading={own.data === undefined} />}
      {brands.error !== undefined && <ErrorNotice error={brands.error} what="read the brand analytics" />}
      {brands.data === undefined ? (brands.error === undefined && <Loading />) : (
        <BrandsCard
          answer={brands.data}
          sort={{ by: sortBy, order: sortOrder }}
          onSort={(sort) => set({ sort: sort.by, order: sort.order, page: undefined })}
          onPage={(next) => set({ page: next })}
        />
      )}
      {trend.error !== undefined && <ErrorNotice error={trend.error} what="read the trend" />}
      {trend.data !== undefined && (
        <TrendCard
          series={trend.data}
          metric={metric}
          bands={bands && isProportion(metric)}
          controls={
            <>
              <label class="field-inline">
                <span>Measure</span>
                <select value={metric} onChange={(event) => set({ metric: event.currentTarget.value })}>
                  {brandMetrics.map((name) => <option key={name} value={name}>{metricNames[name]}</option>)}
                </select>
              </label>
              <label class="field-inline">
                <span>Interval</span>
                <select value={interval} onChange={(event) => set({ interval: event.currentTarget.value })}>
                  {intervals.map((name) => <option key={name} value={name}>{name[0]!.toUpperCase() + name.slice(1)}</option>)}
                </select>
              </label>
              {isProportion(metric) && (
                <label class="field-inline check" title="Each line's Wilson interval at 95%, bucket by bucket">
                  <input type="checkbox" checked={bands} onChange={(event) => set({ bands: event.currentTarget.checked ? "1" : undefined })} />
                  <span>95% bands</span>
                </label>
              )}
            </>
          }
        />
      )}
    </div>
  )
}

const OwnBrand = ({ row, loading }: { readonly row: BrandRow | null | undefined; readonly loading: boolean }) => {
  if (loading) return <Loading />
  if (row === null || row === undefined) {
    return (
      <p class="notice notice-info">
        This project has no own brand yet, so there is nothing to highlight. Choose it in{" "}
        <Link href="/setup/brands">Setup → Brands</Link>.
      </p>
    )
  }
  return (
    <section class="kpis-block" aria-label={`${row.brand.name}, the own brand`} id="own-brand">
      <div class="kpis">
        <div class="kpi">
          <h2>Visibility</h2>
          <p class="kpi-value" data-measure="visibility">{percent(row.visibility)}</p>
          <p class="kpi-ci">95%: {row.visibility_ci === null ? "—" : `${percent(row.visibility_ci.low)} – ${percent(row.visibility_ci.high)}`}</p>
          <Change value={row.visibility_change} significant={row.visibility_change_significant} unit=" pp" blank={noChange} basis={basisOf.visibility(row)} />
        </div>
        <div class="kpi">
          <h2>Share of voice</h2>
          <p class="kpi-value" data-measure="share_of_voice">{percent(row.share_of_voice)}</p>
          <p class="kpi-ci">95%: {row.share_of_voice_ci === null ? "—" : `${percent(row.share_of_voice_ci.low)} – ${percent(row.share_of_voice_ci.high)}`}</p>
          <Change value={row.share_of_voice_change} significant={row.share_of_voice_change_significant} unit=" pp" blank={noChange} basis={basisOf.share_of_voice(row)} />
        </div>
        <div class="kpi">
          <h2>Average position</h2>
          <p class="kpi-value" data-measure="average_position">{number(row.average_position)}</p>
          <p class="kpi-ci">1 is named first</p>
          <Change value={row.average_position_change} higherIsBetter={false} blank={noChange} basis={basisOf.mean(row)} />
        </div>
        <div class="kpi">
          <h2>Average sentiment</h2>
          <p class="kpi-value" data-measure="average_sentiment">{number(row.average_sentiment)}</p>
          <p class="kpi-ci">0–100, 50 neutral</p>
          <Change value={row.average_sentiment_change} blank={noChange} basis={basisOf.mean(row)} />
        </div>
        <div class="kpi">
          <h2>Answers</h2>
          <p class="kpi-value" data-measure="responses_count">{integer(row.responses_count)}</p>
          <p class="kpi-ci">{row.brand.name} named in {integer(row.mentioned_count)}</p>
        </div>
      </div>
      <p class="kpi-key">
        Changes against the previous period of the same length, with their sign, the previous value and the counts
        it rests on; <SignificanceKey id="own-brand-key" />; {smallSampleKey}.
      </p>
    </section>
  )
}

/** An interval, which may break after its low bound when the table needs the room (never inside a bound). */
const ci = (interval: { low: number; high: number } | null) => (interval === null ? "—" : `${percent(interval.low)} –\u00a0${percent(interval.high)}`)

const brandColumns: ReadonlyArray<Column<BrandRow>> = [
  {
    label: "Brand",
    sortKey: "name",
    render: (row) => (
      <>
        {row.brand.name}
        {row.brand.is_own && <span class="badge badge-own">own brand</span>}
      </>
    )
  },
  { label: "Visibility", numeric: true, sortKey: "visibility", render: (row) => <span data-field="visibility">{percent(row.visibility)}</span> },
  { label: "95% interval", numeric: true, render: (row) => <span class="interval" data-field="visibility_ci">{ci(row.visibility_ci)}</span> },
  {
    label: "Change",
    numeric: true,
    render: (row) => (
      <span data-field="visibility_change">
        <Change value={row.visibility_change} significant={row.visibility_change_significant} blank={noChange} basis={basisOf.visibility(row)} />
      </span>
    )
  },
  { label: "Share of voice", numeric: true, sortKey: "share_of_voice", render: (row) => (
      <>
        <span data-field="share_of_voice">{percent(row.share_of_voice)}</span>
        <span class="muted block small" data-field="share_of_voice_counts" title={`${integer(row.mentioned_count)} of the ${integer(row.total_mentions)} mentions of all brands`}>
          {integer(row.mentioned_count)} of {integer(row.total_mentions)}
        </span>
      </>
    ) },
  { label: "95% interval ", numeric: true, render: (row) => <span class="interval" data-field="share_of_voice_ci">{ci(row.share_of_voice_ci)}</span> },
  {
    label: "Change ",
    numeric: true,
    render: (row) => (
      <span data-field="share_of_voice_change">
        <Change value={row.share_of_voice_change} significant={row.share_of_voice_change_significant} blank={noChange} basis={basisOf.share_of_voice(row)} />
      </span>
    )
  },
  { label: "Avg position", numeric: true, sortKey: "average_position", render: (row) => <span data-field="average_position">{number(row.average_position)}</span> },
  { label: "Avg sentiment", numeric: true, sortKey: "average_sentiment", render: (row) => <span data-field="average_sentiment">{number(row.average_sentiment)}</span> },
  {
    label: "Named in",
    numeric: true,
    sortKey: "mentioned_count",
    render: (row) => <span data-field="mentioned_count">{integer(row.mentioned_count)} of {integer(row.responses_count)}</span>
  },
  { label: "Last seen", class: "date", render: (row) => date(row.last_seen_on) }
]

const BrandsCard = ({ answer, sort, onSort, onPage }: {
  readonly answer: Paginated<BrandRow>
  readonly sort: { readonly by: string; readonly order: "asc" | "desc" }
  readonly onSort: (sort: { by: string; order: "asc" | "desc" }) => void
  readonly onPage: (page: number) => void
}) => {
  const rows = answer.data
  const whisker = (measure: "visibility" | "share_of_voice") =>
    rows.map((row) => ({
      id: row.brand.id,
      name: row.brand.name,
      own: row.brand.is_own,
      value: row[measure],
      ci: row[`${measure}_ci`],
      change: row[`${measure}_change`],
      significant: row[`${measure}_change_significant`]
    }))
  return (
    <ChartCard
      id="brands"
      title="Brands"
      note={
        <p class="card-note">
          Each dot is the brand’s measure over the period; the whiskers are its 95% interval. Total mentions of all brands:{" "}
          {integer(rows[0]?.total_mentions ?? 0)}. <SignificanceKey />.
        </p>
      }
      chart={
        <>
          <div class="whisker-pair">
            <Whiskers heading="Visibility" title="Visibility: share of answers naming the brand" rows={whisker("visibility")} />
            <Whiskers heading="Share of voice" title="Share of voice: share of all brand mentions" rows={whisker("share_of_voice")} />
          </div>
          <WhiskerLegend />
          <Pager meta={answer.meta} onPage={onPage} label="Brand pages" />
        </>
      }
      table={
        <>
          <DataTable
            class="wrap-headers"
            caption={`Brands over the period, with 95% intervals; changes in percentage points, ✱ significant, each with the previous period’s value and its counts (answers for visibility, mentions for share of voice); ${smallSampleKey}`}
            columns={brandColumns}
            rows={rows}
            rowKey={(row) => row.brand.id}
            rowClass={(row) => (row.brand.is_own ? "own" : undefined)}
            sort={sort}
            onSort={onSort}
            empty="No brand is counted in this project (brands classified “ignored” are not)."
          />
          <Pager meta={answer.meta} onPage={onPage} label="Brand pages" />
        </>
      }
    />
  )
}

const TrendCard = ({ series, metric, bands, controls }: {
  readonly series: BrandSeries
  readonly metric: BrandMetric
  readonly bands: boolean
  readonly controls: ComponentChildren
}) => {
  const unit = isProportion(metric) ? "%" : ""
  // Each point's interval from its own counts, as the API computes a period's (web/src/stats.ts).
  const intervalsOf = useMemo(
    () => series.series.map((item) => item.data.map((point) => (point.total === undefined || point.total === null ? null : wilson(point.count ?? 0, point.total)))),
    [series]
  )
  const timestamps = useMemo(() => series.series[0]?.data.map((point) => point.timestamp) ?? [], [series])
  const lines = useMemo<ReadonlyArray<Line>>(() => {
    let index = 0
    return series.series.map((item, line) => {
      const own = item.brand.is_own
      const position = own ? 0 : index++
      return {
        label: own ? `${item.brand.name} (own)` : item.brand.name,
        color: own ? ownColor : otherColor(position),
        width: own ? 3.5 : 2,
        ...(own ? {} : { dash: otherDash(position) }),
        values: item.data.map((point) => point.value),
        ...(isProportion(metric) ? { bands: intervalsOf[line]! } : {})
      }
    })
  }, [series, intervalsOf, metric])
  const title = `${metricNames[metric]} by ${series.interval}`
  return (
    <ChartCard
      id="trend"
      title={`Trend: ${metricNames[metric].toLowerCase()}`}
      controls={controls}
      chart={series.series.length === 0
        ? <p class="empty">No brand was named in this period.</p>
        : (
          <TimeChart
            label={`${title}: own brand against the top competitors`}
            timestamps={timestamps}
            interval={series.interval}
            lines={lines}
            unit={unit}
            bounds={metricBounds[metric]}
            showBands={bands}
          />
        )}
      table={
        <div class="table-wrap">
          <table>
            <caption>{title} (each bucket starts on the date shown, UTC){bands ? "; each value with its 95% interval" : ""}</caption>
            <thead>
              <tr>
                <th scope="col">{series.interval[0]!.toUpperCase() + series.interval.slice(1)} of</th>
                {series.series.map((item) => <th key={item.brand.id} scope="col" class="num">{item.brand.name}</th>)}
              </tr>
            </thead>
            <tbody>
              {timestamps.map((timestamp, row) => (
                <tr key={timestamp}>
                  <th scope="row">{date(timestamp)}</th>
                  {series.series.map((item, column) => {
                    const point = item.data[row]
                    return (
                      <td key={item.brand.id} class="num">
                        {unit === "%" ? percent(point?.value ?? null) : number(point?.value ?? null)}
                        {point?.total !== undefined && point.total !== null && <span class="muted"> ({integer(point.count)}/{integer(point.total)})</span>}
                        {bands && intervalsOf[column]?.[row] && <span class="muted block">95%: {percent(intervalsOf[column]![row]!.low)} – {percent(intervalsOf[column]![row]!.high)}</span>}
                      </td>
                    )
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      }
    />
  )
}
