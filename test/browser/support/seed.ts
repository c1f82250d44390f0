import type { QuestionBrand } from "../../../src/Collector/Platform.ts"
import { simulate } from "../../../src/Collector/Simulated.ts"
import type { Platform } from "../../../src/Domain/Platform.ts"

/**
 * A demo-like project made through the public API, as a customer would (npm run demo makes the same
 * shape through the repositories): an own brand and five competitors, a segment, tags, two monitors
 * (US and DE), ten tagged prompts, and `days` days of answers written by the simulated platform
 * (src/Collector/Simulated.ts), dated on their day: each a POST /responses body, loaded with the
 * command-line import (`importAnswers`), which checks and analyzes them as the API does, in batches.
 *
 * So that the Overview has a change to mark, the own brand is left out of the simulated platform's
 * brand list for a third of the answers older than 30 days: its visibility rises in the last 30 days
 * (the dashboard's default period) against the 30 before. And so that a prompt is "missing" the own
 * brand, the last prompt's answers never name it. A second, empty project is there to switch to.
 */
export interface Seeded {
  readonly projectId: number
  /** A second project, empty, for the project switcher. */
  readonly otherProjectId: number
  readonly ownBrandId: number
  readonly brandIds: Readonly<Record<string, number>>
  readonly monitorIds: ReadonlyArray<number>
  readonly promptIds: ReadonlyArray<number>
  readonly tagIds: Readonly<Record<string, number>>
  readonly answers: number
}

const brands = [
  { name: "Northwind CRM", aliases: ["Northwind"], domains: ["northwind-crm.example"] },
  { name: "HubSpot", aliases: ["HubSpot CRM"], domains: ["hubspot.com"] },
  { name: "Salesforce", aliases: ["Sales Cloud"], domains: ["salesforce.com"] },
  { name: "Pipedrive", aliases: [], domains: ["pipedrive.com"] },
  { name: "Zoho CRM", aliases: ["Zoho"], domains: ["zoho.com"] },
  { name: "Freshsales", aliases: ["Freshworks CRM"], domains: ["freshworks.com"] }
]

const monitors: ReadonlyArray<{ name: string; country: string; platforms: ReadonlyArray<Platform> }> = [
  { name: "US daily", country: "US", platforms: ["chatgpt", "perplexity"] },
  { name: "DE daily", country: "DE", platforms: ["chatgpt", "google_ai_overview"] }
]

/** Prompt texts and tags; the first half go to the US monitor, the rest to the DE one. */
const prompts: ReadonlyArray<readonly [string, ReadonlyArray<string>]> = [
  ["What is the best CRM for a small agency?", ["non-branded", "comparison"]],
  ["Which CRM has the best free plan?", ["non-branded", "pricing"]],
  ["Is Northwind CRM worth it for startups?", ["branded", "review"]],
  ["What CRM integrates best with Gmail and Slack?", ["non-branded", "integrations"]],
  ["Which CRM do B2B SaaS companies use?", ["non-branded", "comparison"]],
  ["Which CRM is GDPR compliant and hosted in the EU?", ["non-branded", "integrations"]],
  ["Best CRM for German small businesses?", ["non-branded", "comparison"]],
  ["Cheapest CRM with email automation?", ["non-branded", "pricing"]],
  ["Northwind CRM pricing compared to Pipedrive", ["branded", "pricing"]],
  ["Simple CRM for freelancers and consultants?", ["non-branded"]]
]

const DAY_MS = 86_400_000

export const seedProject = async (
  baseUrl: string,
  key: string,
  days: number,
  importAnswers: (ndjson: string, projectId: number) => Promise<void>
): Promise<Seeded> => {
  const call = async <T>(method: string, path: string, body?: unknown, project?: number): Promise<T> => {
    const headers: Record<string, string> = { authorization: `Bearer ${key}`, accept: "application/json" }
    if (body !== undefined) headers["content-type"] = "application/json"
    if (project !== undefined) headers["service-project-id"] = String(project)
    const response = await fetch(`${baseUrl}/api/v1${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
    const text = await response.text()
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`)
    return (text === "" ? undefined : JSON.parse(text).data) as T
  }

  const project = await call<{ id: number }>("POST", "/projects", { name: "Northwind CRM", domain: "northwind-crm.example" })
  const p = project.id
  const segment = await call<{ id: number }>("POST", "/segments", { name: "Enterprise" }, p)
  const brandIds: Record<string, number> = {}
  for (const brand of brands) {
    const segmentIds = brand.name === "Salesforce" || brand.name === "HubSpot" ? [segment.id] : []
    brandIds[brand.name] = (await call<{ id: number }>("POST", "/brands", { ...brand, segment_ids: segmentIds }, p)).id
  }
  const ownBrandId = brandIds["Northwind CRM"]!
  await call("PATCH", `/projects/${p}`, { brand_id: ownBrandId })

  const tagIds: Record<string, number> = {}
  for (const tag of await call<Array<{ id: number; name: string }>>("GET", "/tags", undefined, p)) tagIds[tag.name] = tag.id
  for (const [name, color] of [["comparison", "#0072b2"], ["pricing", "#009e73"], ["integrations", "#e69f00"]] as const) {
    tagIds[name] = (await call<{ id: number }>("POST", "/tags", { name, color }, p)).id
  }

  const monitorRows: Array<{ id: number; country: string; platforms: ReadonlyArray<Platform> }> = []
  for (const monitor of monitors) {
    const created = await call<{ id: number }>("POST", "/monitors", { ...monitor, schedule: "daily" }, p)
    monitorRows.push({ id: created.id, country: monitor.country, platforms: monitor.platforms })
  }
  const promptRows: Array<{ id: number; text: string; monitor: (typeof monitorRows)[number] }> = []
  for (const [index, [text, tags]] of prompts.entries()) {
    const monitor = monitorRows[index < prompts.length / 2 ? 0 : 1]!
    const created = await call<{ id: number }>("POST", "/prompts", { monitor_id: monitor.id, text, tags: tags.map((tag) => tagIds[tag]) }, p)
    promptRows.push({ id: created.id, text, monitor })
  }

  const questionBrands: ReadonlyArray<QuestionBrand> = brands.map((brand) => ({ ...brand, own: brand.name === "Northwind CRM" }))
  const today = Math.floor(Date.now() / DAY_MS) * DAY_MS
  const lines: Array<string> = []
  for (let age = days; age >= 1; age--) {
    const day = new Date(today - age * DAY_MS)
    const dayText = day.toISOString().slice(0, 10)
    for (const [index, prompt] of promptRows.entries()) {
      for (const platform of prompt.monitor.platforms) {
        const withoutOwn = index === promptRows.length - 1 || (age > 30 && (index + age) % 3 === 0)
        const { answer } = simulate({
          platform,
          prompt: prompt.text,
          promptId: prompt.id,
          country: prompt.monitor.country,
          day: dayText,
          brands: withoutOwn ? questionBrands.filter((brand) => !brand.own) : questionBrands
        })
        const collectedAt = new Date(day.getTime() + (9 + (index % 8)) * 3_600_000).toISOString()
        lines.push(JSON.stringify({ prompt_id: prompt.id, platform, text: answer.text, citations: answer.citations, collected_at: collectedAt }))
      }
    }
  }
  await importAnswers(`${lines.join("\n")}\n`, p)
  const other = await call<{ id: number }>("POST", "/projects", { name: "Contoso Support", domain: null })
  return {
    projectId: p,
    otherProjectId: other.id,
    ownBrandId,
    brandIds,
    monitorIds: monitorRows.map((monitor) => monitor.id),
    promptIds: promptRows.map((prompt) => prompt.id),
    tagIds,
    answers: lines.length
  }
}
