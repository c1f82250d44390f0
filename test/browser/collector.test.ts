import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { buildWeb } from "../../scripts/build-web.ts"
import { type Browser, launchBrowser, skipBrowserTests } from "./support/browser.ts"
import { type RealServer, startRealServer } from "./support/server.ts"

/**
 * The Collector page as a person reads it, against the real server running its collector with no provider
 * key (the simulated platform answers simulated monitors only): the workers' health, and what "Run now"
 * says when no running worker can answer a monitor's platforms, and when one can. Screenshots go to a
 * folder of the run.
 */

const screenshots = `${mkdtempSync(join(tmpdir(), "bvm-screenshots-"))}/`
/** Every provider key a developer's shell may hold: this server must have none. */
const providerKeys = ["OPENAI_API_KEY", "PERPLEXITY_API_KEY", "GEMINI_API_KEY", "ANTHROPIC_API_KEY", "XAI_API_KEY", "SERP_API_KEY"]

describe.skipIf(skipBrowserTests)("the Collector page in a browser", { timeout: 60_000 }, () => {
  let server: RealServer
  let browser: Browser
  let page: Page
  let key: string
  let project: number

  const api = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${server.baseUrl}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, "service-project-id": String(project), "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body)
    })
    return await response.json() as any
  }

  const monitorWithPrompts = async (name: string, simulated: boolean) => {
    const monitor = (await api("POST", "/monitors", { name, country: "US", platforms: ["chatgpt", "claude"], schedule: "manual", simulated })).data
    for (const text of ["Which CRM suits a small agency?", "Is Northwind CRM worth it?"]) await api("POST", "/prompts", { monitor_id: monitor.id, text })
    return monitor
  }

  beforeAll(async () => {
    await buildWeb()
    server = await startRealServer({
      env: { WORKER: "on", COLLECTOR_TICK_SECONDS: "3600", ...Object.fromEntries(providerKeys.map((name) => [name, undefined])), SIMULATED_PLATFORMS: undefined }
    })
    const organization = JSON.parse(await server.cli("orgs", "create", "Collector Inc.", "--json")) as { id: number }
    key = (JSON.parse(await server.cli("keys", "create", "--org", String(organization.id), "--name", "browser", "--abilities", "*", "--json")) as { key: string }).key
    const created = await fetch(`${server.baseUrl}/api/v1/projects`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "Northwind CRM" })
    })
    project = ((await created.json()) as any).data.id
    await api("POST", "/brands", { name: "Northwind CRM", domains: ["northwind-crm.example"] })
    await monitorWithPrompts("Real answers", false)
    await monitorWithPrompts("Simulated answers", true)
    browser = await launchBrowser()
    page = browser.page
    await page.goto(`${server.baseUrl}/sign-in`)
    await page.fill("#api-key", key)
    await page.click("button[type=submit]")
    await page.waitForSelector("main#main h1:text('Overview')")
  }, 300_000)

  afterAll(async () => {
    await browser?.close()
    await server?.stop()
  }, 60_000)

  it("shows the running worker and, for each platform, whether it has a provider key or simulates it", async () => {
    await page.click("nav.sidenav a:text-is('Collector')")
    await page.waitForSelector("main h1:text('Collector')")
    await page.waitForSelector("#health-title")
    expect(await page.textContent(".worker-status")).toMatch(/^1 worker is running \(last heartbeat \d{4}-\d\d-\d\d/)
    const rows = await page.locator("table:has(caption:text('Platforms the running workers answer')) tbody tr").evaluateAll((all) =>
      all.map((row) => Array.from(row.querySelectorAll("td, th"), (cell) => cell.textContent?.trim()))
    )
    expect(rows).toHaveLength(8)
    expect(rows[0]).toEqual(["ChatGPT", "no", "yes"])
    expect(rows.every((row) => row[1] === "no" && row[2] === "yes")).toBe(true)
    // The monitors say which answers they get.
    const monitors = await page.locator("table:has(caption:text('Monitors')) tbody tr").allTextContents()
    expect(monitors.find((row) => row.includes("Real answers"))).toContain("real")
    expect(monitors.find((row) => row.includes("Simulated answers"))).toContain("simulated")
  })

  it("Run now on a monitor no worker can answer says so, and why, instead of promising answers", async () => {
    await page.click("button[aria-label='Run Real answers now']")
    const notice = page.locator(".notice-warning:has-text('started with 4 jobs')")
    await notice.waitFor()
    const text = await notice.textContent()
    expect(text).toContain("no running worker can answer any of them on ChatGPT (no provider key for chatgpt), Claude (no provider key for claude)")
    expect(text).not.toContain("workers answer them shortly")
    // The run's row says what it waits on.
    const row = page.locator("table:has(caption:text('Runs of Real answers')) tbody tr").first()
    await expect.poll(() => row.textContent()).toContain("ChatGPT: no provider key for chatgpt; Claude: no provider key for claude")
    await page.screenshot({ path: `${screenshots}collector-blocked.png`, fullPage: true })
  })

  it("Run now on a simulated monitor promises answers, and the worker gives them", async () => {
    await page.click("button[aria-label='Run Simulated answers now']")
    const notice = page.locator(".notice-success:has-text('started with 4 jobs')")
    await notice.waitFor()
    expect(await notice.textContent()).toContain("workers answer them shortly")
    const monitors = (await api("GET", "/monitors")).data as Array<any>
    const simulated = monitors.find((monitor) => monitor.name === "Simulated answers")
    await expect.poll(async () => (await api("GET", `/monitors/${simulated.id}/runs`)).data[0].jobs.succeeded, { timeout: 30_000 }).toBe(4)
    await page.click("header.card-header:has(#runs-title) button:text-is('Refresh')")
    const row = page.locator("table:has(caption:text('Runs of Simulated answers')) tbody tr").first()
    await expect.poll(() => row.textContent()).toContain("completed")
  })
})
