import { useState } from "preact/hooks"
import { ApiError } from "../api/client.ts"
import type { Data, Monitor, Paginated, Platform, Run as BaseRun } from "../api/types.ts"
import { platformNames } from "../api/types.ts"
import { type Column, DataTable } from "../components/DataTable.tsx"
import { ErrorNotice, Loading, Notice } from "../components/Notice.tsx"
import { Pager } from "../components/Pager.tsx"
import { dateTime, integer } from "../format.ts"
import type { PageProps } from "../Layout.tsx"
import { useLoad } from "../load.ts"
import { navigate, withQuery } from "../router.tsx"
import { useSession } from "../session-context.tsx"

const jobKinds = ["succeeded", "failed", "skipped", "running", "pending"] as const

/** A platform of a run's pending jobs that no running worker answers, and why (GET /monitors/{monitor}/runs). */
interface BlockedPlatform {
  readonly platform: Platform
  readonly reason: string
}
type Run = BaseRun & { readonly blocked_platforms: ReadonlyArray<BlockedPlatform> }

/** GET /collector/health: whether a worker is alive, and how each platform is answered. */
interface CollectorHealth {
  readonly workers: { readonly alive: number; readonly last_heartbeat_at: string | null }
  readonly platforms: ReadonlyArray<{ readonly platform: Platform; readonly provider_key: boolean; readonly simulation: boolean }>
}

const platformName = (platform: Platform) => platformNames[platform] ?? platform

/** The blocked platforms grouped by their reason, in order: a reason shared by all (no worker) is said once. */
const byReason = (blocked: ReadonlyArray<BlockedPlatform>) => {
  const groups = new Map<string, Array<string>>()
  for (const b of blocked) groups.set(b.reason, [...(groups.get(b.reason) ?? []), platformName(b.platform)])
  return [...groups].map(([reason, names]) => ({ names: names.join(", "), reason }))
}

/** "ChatGPT (no provider key for chatgpt), Claude (...)"; "ChatGPT, Perplexity (no collector worker is running)". */
const describeBlocked = (blocked: ReadonlyArray<BlockedPlatform>) =>
  byReason(blocked).map((group) => `${group.names} (${group.reason})`).join(", ")

/** A run's jobs as a bar of five parts (with its numbers beside it: the bar is not the only carrier). */
const JobsBar = ({ run }: { readonly run: Run }) => {
  const total = Math.max(1, run.jobs.total)
  return (
    <span class="jobs">
      <span class="jobs-bar" aria-hidden="true">
        {jobKinds.map((kind) =>
          run.jobs[kind] === 0 ? null : <span key={kind} class={`jobs-${kind}`} style={{ width: `${(100 * run.jobs[kind]) / total}%` }} />
        )}
      </span>
    </span>
  )
}

const runColumns: ReadonlyArray<Column<Run>> = [
  { label: "Slot", class: "date", render: (run) => dateTime(run.slot) },
  { label: "Trigger", render: (run) => run.trigger },
  { label: "Status", render: (run) => <span class={`status status-${run.status}`}>{run.status}</span> },
  { label: "Jobs", numeric: true, render: (run) => integer(run.jobs.total) },
  { label: "Succeeded", numeric: true, render: (run) => integer(run.jobs.succeeded) },
  { label: "Failed", numeric: true, render: (run) => integer(run.jobs.failed) },
  { label: "Skipped", numeric: true, render: (run) => integer(run.jobs.skipped) },
  { label: "Running", numeric: true, render: (run) => integer(run.jobs.running) },
  { label: "Pending", numeric: true, render: (run) => integer(run.jobs.pending) },
  { label: "Progress", render: (run) => <JobsBar run={run} /> },
  {
    label: "Waiting on",
    // Pending jobs no running worker answers: without it, a run that stays "running" says nothing of why.
    render: (run) => byReason(run.blocked_platforms).map((group) => `${group.names}: ${group.reason}`).join("; ")
  },
  { label: "Completed", class: "date", render: (run) => dateTime(run.completed_at) }
]

/** Whether a worker is alive, and which platforms a running worker answers (with a key, or simulated). */
const HealthCard = ({ health }: { readonly health: CollectorHealth }) => {
  const { alive, last_heartbeat_at } = health.workers
  return (
    <section class="card" aria-labelledby="health-title">
      <header class="card-header">
        <h2 id="health-title">Workers</h2>
      </header>
      <p class="worker-status">
        {alive > 0
          ? <>{alive === 1 ? "1 worker is" : `${integer(alive)} workers are`} running (last heartbeat {dateTime(last_heartbeat_at)}).</>
          : last_heartbeat_at === null
          ? <>No collector worker is running: runs wait until one starts (<code>npm start</code>, or <code>npm run worker</code> beside <code>WORKER=off</code>).</>
          : <>No collector worker is running: the last heartbeat was {dateTime(last_heartbeat_at)}.</>}
      </p>
      <DataTable
        caption="Platforms the running workers answer"
        columns={healthColumns}
        rows={health.platforms}
        rowKey={(row) => row.platform}
      />
      <p class="legend">A provider key answers the monitors whose answers are real; simulation answers only the monitors set to simulated answers.</p>
    </section>
  )
}

const healthColumns: ReadonlyArray<Column<CollectorHealth["platforms"][number]>> = [
  { label: "Platform", render: (row) => platformName(row.platform) },
  { label: "Provider key", render: (row) => (row.provider_key ? "yes" : "no") },
  { label: "Simulation", render: (row) => (row.simulation ? "yes" : "no") }
]

/**
 * The monitors and the collector's runs of each, with their jobs' counts; "Run now" starts a manual
 * run (POST /monitors/{monitor}/runs), which the workers answer shortly after, unless no running worker
 * can (the run's `blocked_platforms`, said in the message). The workers' health (GET /collector/health)
 * says what is running and which platforms it answers.
 */
export const Collector = ({ location }: PageProps) => {
  const session = useSession()
  const page = Math.max(1, Number(location.query.get("page")) || 1)
  const runsPage = Math.max(1, Number(location.query.get("runs_page")) || 1)
  const monitors = useLoad(
    (signal) => session.client.get<Paginated<Monitor>>("/monitors", { project: true, signal, query: { page, per_page: 25 } }),
    [page]
  )
  const selectedParam = Number(location.query.get("monitor"))
  const selected = monitors.data?.data.find((monitor) => monitor.id === selectedParam) ?? monitors.data?.data[0]
  const runs = useLoad(
    (signal) =>
      selected === undefined
        ? Promise.resolve(undefined)
        : session.client.get<Paginated<Run>>(`/monitors/${selected.id}/runs`, { project: true, signal, query: { page: runsPage, per_page: 15 } }),
    [selected?.id, runsPage]
  )
  const health = useLoad((signal) => session.client.get<Data<CollectorHealth>>("/collector/health", { project: true, signal }), [])
  const [started, setStarted] = useState<{ monitor: Monitor; run: Run } | undefined>(undefined)
  const [failure, setFailure] = useState<ApiError | undefined>(undefined)
  const set = (changes: Record<string, string | number | undefined>) => navigate(withQuery(location, changes), { replace: true })

  const runNow = async (monitor: Monitor) => {
    setFailure(undefined)
    try {
      const answer = await session.client.request<Data<Run>>("POST", `/monitors/${monitor.id}/runs`, { project: true })
      setStarted({ monitor, run: answer.data })
      health.reload()
      if (selected?.id === monitor.id) runs.reload()
      else set({ monitor: monitor.id, runs_page: undefined })
    } catch (error) {
      if (error instanceof ApiError) setFailure(error)
    }
  }

  const monitorColumns: ReadonlyArray<Column<Monitor>> = [
    { label: "Monitor", render: (monitor) => monitor.name },
    { label: "Country", render: (monitor) => monitor.country },
    { label: "Platforms", render: (monitor) => monitor.platforms.map((platform) => platformNames[platform] ?? platform).join(", ") },
    { label: "Schedule", render: (monitor) => monitor.schedule },
    { label: "Active", render: (monitor) => (monitor.active ? "yes" : "no") },
    { label: "Answers", render: (monitor) => (monitor.simulated ? "simulated" : "real") },
    {
      label: "Actions",
      render: (monitor) => (
        <span class="row-actions">
          <button
            type="button"
            aria-pressed={selected?.id === monitor.id}
            onClick={() => set({ monitor: monitor.id, runs_page: undefined })}
            aria-label={`Show the runs of ${monitor.name}`}
          >
            Runs
          </button>
          {session.can("monitors:write") && (
            <button type="button" class="primary" onClick={() => runNow(monitor)} aria-label={`Run ${monitor.name} now`}>Run now</button>
          )}
        </span>
      )
    }
  ]

  return (
    <div class="page">
      <h1>Collector</h1>
      <p class="lead">Each monitor asks its prompts on each of its platforms on its schedule; a run holds one job per prompt and platform.</p>
      {started !== undefined && <StartedNotice monitor={started.monitor} run={started.run} />}
      {failure !== undefined && <ErrorNotice error={failure} what="start a run" />}
      {monitors.error !== undefined && <ErrorNotice error={monitors.error} what="list the monitors" />}
      {health.error !== undefined && <ErrorNotice error={health.error} what="read the workers' health" />}
      {monitors.data === undefined ? monitors.error === undefined && <Loading /> : (
        <section class="card">
          <DataTable
            caption="Monitors"
            columns={monitorColumns}
            rows={monitors.data.data}
            rowKey={(monitor) => monitor.id}
            rowClass={(monitor) => (monitor.id === selected?.id ? "selected" : undefined)}
            empty="No monitor yet: create one in Setup."
          />
          <Pager meta={monitors.data.meta} onPage={(next) => set({ page: next })} label="Monitor pages" />
        </section>
      )}
      {selected !== undefined && (
        <section class="card" aria-labelledby="runs-title">
          <header class="card-header">
            <h2 id="runs-title">Runs of {selected.name}</h2>
            <button type="button" onClick={() => { runs.reload(); health.reload() }}>Refresh</button>
          </header>
          {runs.error !== undefined && <ErrorNotice error={runs.error} what="list the runs" />}
          {runs.data === undefined ? runs.error === undefined && <Loading /> : (
            <>
              <DataTable caption={`Runs of ${selected.name}, newest first`} captionHidden columns={runColumns} rows={runs.data.data} rowKey={(run) => run.id} empty="No run yet." />
              <Pager meta={runs.data.meta} onPage={(next) => set({ runs_page: next })} label="Run pages" />
              <p class="legend" aria-hidden="true">
                {jobKinds.map((kind) => <span key={kind}><span class={`swatch jobs-${kind}`} /> {kind}</span>)}
              </p>
            </>
          )}
        </section>
      )}
      {health.data !== undefined && <HealthCard health={health.data.data} />}
    </div>
  )
}

/** What "Run now" did: the run's jobs, and whether the running workers can answer them at all. */
const StartedNotice = ({ monitor, run }: { readonly monitor: Monitor; readonly run: Run }) => {
  const what = <>Run {run.id} of “{monitor.name}” started with {integer(run.jobs.total)} jobs</>
  if (run.jobs.pending === 0) return <Notice kind="success">{what}; none is left to answer.</Notice>
  const blocked = run.blocked_platforms
  if (blocked.length === 0) return <Notice kind="success">{what}; workers answer them shortly.</Notice>
  const all = monitor.platforms.every((platform) => blocked.some((b) => b.platform === platform))
  return (
    <Notice kind="warning">
      {what}, but no running worker can answer {all ? "any of them" : "those"} on {describeBlocked(blocked)}.{" "}
      {all ? "They" : "These"} wait for a worker that can, and are skipped a day after the run if none comes.
    </Notice>
  )
}
