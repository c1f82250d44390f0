import type { Monitor, Paginated, Prompt, Response } from "../api/types.ts"
import { platformNames, platforms } from "../api/types.ts"
import { type Column, DataTable } from "../components/DataTable.tsx"
import { ErrorNotice, Loading } from "../components/Notice.tsx"
import { Pager } from "../components/Pager.tsx"
import { dateTime, todayUtc } from "../format.ts"
import { plainText } from "../markdown.ts"
import type { PageProps } from "../Layout.tsx"
import { useLoad } from "../load.ts"
import { href, Link, navigate, withQuery } from "../router.tsx"
import { projectData, useSession } from "../session-context.tsx"

const statuses = ["analyzed", "pending", "failed"] as const

const positive = (value: string | null) => {
  const id = Number(value)
  return Number.isInteger(id) && id > 0 ? id : undefined
}

const isDate = (value: string | null) => value !== null && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : undefined

/** The first words of an answer, its markdown drawn as plain text, without the simulated platform's label line. */
const excerpt = (text: string) => {
  const plain = plainText(text.slice(0, 2000).replace(/^\[Simulated answer\]\s*/, ""))
  return plain.length > 160 ? `${plain.slice(0, 159)}…` : plain
}

/**
 * The answers collected for the project, with the filters of GET /responses (monitor, prompt,
 * platform, status, collection dates), kept in the page's query, newest first unless the "Collected"
 * header asks for oldest first (`order=asc`); each opens its own page.
 */
export const Answers = ({ location }: PageProps) => {
  const session = useSession()
  const data = projectData(session)
  const q = location.query
  const filters = {
    monitor_id: positive(q.get("monitor")),
    prompt_id: positive(q.get("prompt")),
    platform: (platforms as ReadonlyArray<string>).includes(q.get("platform") ?? "") ? q.get("platform")! : undefined,
    status: (statuses as ReadonlyArray<string>).includes(q.get("status") ?? "") ? q.get("status")! : undefined,
    start_date: isDate(q.get("start")),
    end_date: isDate(q.get("end"))
  }
  const page = Math.max(1, Number(q.get("page")) || 1)
  const order = q.get("order") === "asc" ? "asc" : "desc"
  const answers = useLoad(
    (signal) =>
      session.client.get<Paginated<Response>>("/responses", {
        project: true,
        signal,
        query: { ...filters, sort_by: "collected_at", sort_order: order, page, per_page: 25 }
      }),
    [JSON.stringify(filters), order, page]
  )
  const lists = useLoad(
    () => Promise.all([data.monitors().catch(() => [] as ReadonlyArray<Monitor>), data.prompts().catch(() => [] as ReadonlyArray<Prompt>)]),
    [session.projectId]
  )
  const [monitors, prompts] = lists.data ?? [[], []]
  const promptText = (id: number) => prompts.find((prompt) => prompt.id === id)?.text ?? `Prompt ${id}`
  const set = (changes: Record<string, string | number | undefined>) => navigate(withQuery(location, { ...changes, page: undefined }), { replace: true })

  const columns: ReadonlyArray<Column<Response>> = [
    {
      label: "Answer",
      render: (row) => (
        <>
          <Link href={href(`/answers/${row.id}`)} class="answer-link">{promptText(row.prompt_id)}</Link>
          <span class="muted block excerpt">{excerpt(row.text)}</span>
        </>
      )
    },
    { label: "Platform", render: (row) => platformNames[row.platform] ?? row.platform },
    { label: "Country", render: (row) => row.country },
    { label: "Collected", sortKey: "collected_at", render: (row) => dateTime(row.collected_at) },
    { label: "Status", render: (row) => <span class={`status status-${row.status}`}>{row.status}</span> }
  ]

  return (
    <div class="page">
      <h1>Answers</h1>
      <form class="filters" aria-label="Answer filters" onSubmit={(event) => event.preventDefault()}>
        <label class="field-inline">
          <span>Monitor</span>
          <select value={String(filters.monitor_id ?? "")} onChange={(event) => set({ monitor: event.currentTarget.value, prompt: undefined })}>
            <option value="">All</option>
            {monitors.map((monitor) => <option key={monitor.id} value={String(monitor.id)}>{monitor.name}</option>)}
          </select>
        </label>
        <label class="field-inline">
          <span>Prompt</span>
          <select value={String(filters.prompt_id ?? "")} onChange={(event) => set({ prompt: event.currentTarget.value })} class="wide">
            <option value="">All</option>
            {prompts
              .filter((prompt) => filters.monitor_id === undefined || prompt.monitor_id === filters.monitor_id)
              .map((prompt) => <option key={prompt.id} value={String(prompt.id)}>{prompt.text}</option>)}
          </select>
        </label>
        <label class="field-inline">
          <span>Platform</span>
          <select value={filters.platform ?? ""} onChange={(event) => set({ platform: event.currentTarget.value })}>
            <option value="">All</option>
            {platforms.map((platform) => <option key={platform} value={platform}>{platformNames[platform]}</option>)}
          </select>
        </label>
        <label class="field-inline">
          <span>Status</span>
          <select value={filters.status ?? ""} onChange={(event) => set({ status: event.currentTarget.value })}>
            <option value="">All</option>
            {statuses.map((status) => <option key={status} value={status}>{status}</option>)}
          </select>
        </label>
        <label class="field-inline">
          <span>From</span>
          <input type="date" value={filters.start_date ?? ""} max={todayUtc()} onChange={(event) => set({ start: event.currentTarget.value })} />
        </label>
        <label class="field-inline">
          <span>To</span>
          <input type="date" value={filters.end_date ?? ""} max={todayUtc()} onChange={(event) => set({ end: event.currentTarget.value })} />
        </label>
      </form>
      {answers.error !== undefined && <ErrorNotice error={answers.error} what="list the answers" />}
      {answers.data === undefined ? answers.error === undefined && <Loading /> : (
        <section class="card">
          <DataTable
            caption={order === "asc" ? "Answers, oldest first" : "Answers, newest first"}
            columns={columns}
            rows={answers.data.data}
            rowKey={(row) => row.id}
            sort={{ by: "collected_at", order }}
            onSort={(sort) => navigate(withQuery(location, { order: sort.order === "asc" ? "asc" : undefined, page: undefined }), { replace: true })}
            empty="No answer matches these filters."
          />
          <Pager meta={answers.data.meta} onPage={(next) => navigate(withQuery(location, { page: next }), { replace: true })} label="Answer pages" />
        </section>
      )}
    </div>
  )
}
