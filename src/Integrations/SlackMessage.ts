import type { AlertChange, RunCompleted, WebhookEvent } from "./WebhookEvents.ts"
import type { WeeklyDigest } from "./WeeklyDigest.ts"

/**
 * Webhook events as Slack incoming-webhook messages: `text` (the notification and the fallback
 * where blocks do not show) and Block Kit `blocks` that read well in a channel.
 *
 * Everything that comes from users (brand, prompt, project, alert names) is escaped as Slack asks
 * (`&`, `<`, `>`), so a brand named `<!channel>` cannot notify a channel and a prompt cannot make a
 * link. Texts are cut to Slack's limits (header 150 characters, section 3000, 50 blocks), with `…`.
 */

export const HEADER_LIMIT = 150
export const SECTION_LIMIT = 3000
export const BLOCK_LIMIT = 50

export type SlackBlock =
  | { readonly type: "header"; readonly text: { readonly type: "plain_text"; readonly text: string; readonly emoji: boolean } }
  | { readonly type: "section"; readonly text: { readonly type: "mrkdwn"; readonly text: string } }
  | { readonly type: "context"; readonly elements: ReadonlyArray<{ readonly type: "mrkdwn"; readonly text: string }> }
  | { readonly type: "divider" }

export interface SlackMessage {
  readonly text: string
  readonly blocks: ReadonlyArray<SlackBlock>
}

/** Text from users made inert for Slack's mrkdwn (the three characters Slack asks to escape). */
export const escapeSlack = (text: string): string => text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;")

/** Cut to `limit` characters (code points, so an emoji is never split), ending with … when cut. */
export const truncate = (text: string, limit: number): string => {
  const points = [...text]
  return points.length <= limit ? text : `${points.slice(0, limit - 1).join("")}…`
}

const header = (text: string): SlackBlock => ({ type: "header", text: { type: "plain_text", text: truncate(text, HEADER_LIMIT), emoji: false } })
const section = (text: string): SlackBlock => ({ type: "section", text: { type: "mrkdwn", text: truncate(text, SECTION_LIMIT) } })
const divider = (): SlackBlock => ({ type: "divider" })
const context = (text: string): SlackBlock => ({ type: "context", elements: [{ type: "mrkdwn", text: truncate(text, SECTION_LIMIT) }] })

/** A number as the API shows it, with a sign for changes. */
const signed = (value: number): string => (value > 0 ? `+${value}` : String(value))
const percent = (value: number | null): string => (value === null ? "n/a" : `${value}%`)
const points = (value: number | null): string => (value === null ? "n/a" : `${signed(value)} pts`)

const metricNames: Record<AlertChange["alert"]["metric"], string> = {
  visibility: "visibility",
  share_of_voice: "share of voice",
  average_position: "average position",
  average_sentiment: "average sentiment",
  source_used_percentage: "share of answers citing the source",
  url_used_percentage: "share of answers citing the URL"
}

const conditionText = (alert: AlertChange["alert"]): string => {
  const unit = alert.metric === "average_position" || alert.metric === "average_sentiment" ? "" : alert.condition.endsWith("_by") ? " pts" : "%"
  const words = { below: "below", above: "above", drops_by: "drops by", rises_by: "rises by" }[alert.condition]
  return `${words} ${alert.threshold}${unit}`
}

const isPercentMetric = (metric: AlertChange["alert"]["metric"]) => metric !== "average_position" && metric !== "average_sentiment"

const alertMessage = (type: "alert.triggered" | "alert.resolved", data: AlertChange): SlackMessage => {
  const { alert } = data
  const subject = escapeSlack(alert.subject.name)
  const metric = metricNames[alert.metric]
  const firing = type === "alert.triggered"
  const title = `${firing ? "Alert" : "Resolved"}: ${alert.name}`
  const asPercent = isPercentMetric(alert.metric)
  const value = asPercent ? percent(data.value) : String(data.value ?? "n/a")
  const previous = asPercent ? percent(data.previous_value) : String(data.previous_value ?? "n/a")
  const change = asPercent ? points(data.change) : data.change === null ? "n/a" : signed(data.change)
  const counts = (side: AlertChange["counts"]["current"]) =>
    side.kind === "proportion" ? `${side.count} of ${side.total}` : `${side.count} mentions`
  const lines = [
    `*${subject}* ${metric} is *${value}* (${data.window.start_date} to ${data.window.end_date}), ${change} from ${previous}.`,
    `Rule: ${metric} ${conditionText(alert)}${alert.significant_only ? ", significant changes only" : ""}. ${firing ? "It now holds." : "It no longer holds."}`
  ]
  const facts = [
    `Counts: ${counts(data.counts.current)} against ${counts(data.counts.previous)} the ${alert.window_days} days before`,
    ...(data.interval === null ? [] : [`95% interval ${data.interval.low}–${data.interval.high}%`]),
    ...(data.significant === null ? [] : [data.significant ? "change significant" : "change not significant"])
  ]
  return {
    text: `${firing ? "Alert" : "Resolved"} in ${escapeSlack(data.project.name)}: ${subject} ${metric} ${value} (${change})`,
    blocks: [header(title), section(lines.join("\n")), context(`${escapeSlack(data.project.name)} · ${facts.join(" · ")}`)]
  }
}

const runMessage = (data: RunCompleted): SlackMessage => {
  const { run } = data
  const monitor = escapeSlack(run.monitor.name)
  const outcome = run.status === "completed" ? "completed" : run.status === "partial" ? "completed with failures" : "failed"
  return {
    text: `Run ${outcome} in ${escapeSlack(data.project.name)}: ${monitor}, ${run.responses_count} answers`,
    blocks: [
      section(`Run of *${monitor}* ${outcome}: ${run.responses_count} answers collected, ${run.failed_count} failed.`),
      context(`${escapeSlack(data.project.name)} · ${run.started_at} to ${run.finished_at}`)
    ]
  }
}

/** The digest's brand lines: at most 15, the own brand first. */
const DIGEST_BRANDS = 15

const digestMessage = (digest: WeeklyDigest): SlackMessage => {
  const project = escapeSlack(digest.project.name)
  const brands = [...digest.brands.filter((row) => row.brand.is_own), ...digest.brands.filter((row) => !row.brand.is_own)].slice(0, DIGEST_BRANDS)
  const brandLines = brands.map((row) => {
    const name = row.brand.is_own ? `*${escapeSlack(row.brand.name)}*` : escapeSlack(row.brand.name)
    const interval = row.visibility_ci === null ? "" : ` (${row.visibility_ci.low}–${row.visibility_ci.high})`
    const mark = row.visibility_change_significant ? " ✱" : ""
    return `${name}: visibility ${percent(row.visibility)}${interval}, ${points(row.visibility_change)}${mark} · share of voice ${percent(row.share_of_voice)}, ${points(row.share_of_voice_change)}${row.share_of_voice_change_significant ? " ✱" : ""}`
  })
  const movers = digest.prompt_movers.map((mover) =>
    `${mover.change > 0 ? "▲" : "▼"} ${escapeSlack(truncate(mover.prompt.text, 120))}: ${percent(mover.visibility)} (${mover.mentioned_count} of ${mover.responses_count}), ${points(mover.change)} from ${percent(mover.previous_visibility)} (${mover.previous_mentioned_count} of ${mover.previous_responses_count})${mover.significant ? " ✱" : ""}`
  )
  const sources = digest.new_top_sources.map((source) => `#${source.rank} ${escapeSlack(source.source.domain)}: cited in ${source.used_count} answers (${percent(source.used_percentage)})`)
  const runs = digest.runs
  const blocks: Array<SlackBlock> = [
    header(`Weekly digest ${digest.week.label}: ${digest.project.name}`),
    context(`${digest.week.start_date} to ${digest.week.end_date}, against ${digest.previous_week.start_date} to ${digest.previous_week.end_date}. ✱ significant change (95%). Intervals are 95% intervals of visibility.`),
    section(`*Brands*\n${brandLines.length === 0 ? "No brand data this week." : brandLines.join("\n")}`),
    divider(),
    section(`*Prompts that moved most for your brand*\n${movers.length === 0 ? "No prompt moved." : movers.join("\n")}`),
    section(`*New top sources*\n${sources.length === 0 ? "No new source in the top 10." : sources.join("\n")}`),
    context(`Runs: ${runs.runs_completed} completed, ${runs.runs_failed} failed · answers: ${runs.responses_collected} collected, ${runs.responses_failed} failed`)
  ]
  return { text: `Weekly digest ${digest.week.label} for ${project}`, blocks: blocks.slice(0, BLOCK_LIMIT) }
}

/** The Slack message of an event. */
export const slackMessage = (event: WebhookEvent): SlackMessage => {
  switch (event.type) {
    case "alert.triggered":
    case "alert.resolved":
      return alertMessage(event.type, event.data)
    case "run.completed":
      return runMessage(event.data)
    case "digest.weekly":
      return digestMessage(event.data)
    case "webhook.test":
      return {
        text: `Test message from webhook ${event.data.webhook_id}`,
        blocks: [section(`${escapeSlack(event.data.message)}`), context(`Webhook ${event.data.webhook_id} · sent ${event.timestamp}`)]
      }
  }
}
