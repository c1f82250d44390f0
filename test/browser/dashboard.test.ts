import { mkdtempSync } from "node:fs"
import { mkdir } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import type { Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { buildWeb } from "../../scripts/build-web.ts"
import { percentage, wilson } from "../../src/Analytics/Statistics.ts"
import { type Browser, launchBrowser, missingChromium, skipBrowserTests, testBrowser } from "./support/browser.ts"
import { type Seeded, seedProject } from "./support/seed.ts"
import { type RealServer, startRealServer } from "./support/server.ts"

/**
 * The dashboard used as a person would, in a real headless Chromium, against the real server
 * (src/main.ts, the embedded database, or PostgreSQL when DATABASE_URL is set) holding a demo-like
 * project: the steps run in order, on one page, like one visit. Numbers on screen are compared with
 * the API's answers to the same question. Each page is photographed: into docs/screenshots/ (what the
 * README shows) with UPDATE_SCREENSHOTS=1, else into a folder of the run, so that a test run leaves the
 * repository as it found it.
 * The last checks fail the file if any request left 127.0.0.1, the CSP refused anything, or a page
 * threw.
 */

const screenshots = process.env.UPDATE_SCREENSHOTS === "1"
  ? fileURLToPath(new URL("../../docs/screenshots/", import.meta.url))
  : `${mkdtempSync(join(tmpdir(), "bvm-screenshots-"))}/`
const DAYS = 60
const DAY_MS = 86_400_000

const day = (offset: number) => new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS + offset * DAY_MS).toISOString().slice(0, 10)

/** Numbers in a cell's text, signs included (`▲ +4.66`, `−0.50`, `38.00% – 46.00%`, `—` is null). */
const numbersIn = (text: string): Array<number> =>
  [...text.replace(/−/g, "-").replace(/,/g, "").matchAll(/[+-]?\d+(?:\.\d+)?/g)].map((match) => Number(match[0]))

const numberIn = (text: string): number | null => (text.trim() === "—" ? null : numbersIn(text)[0] ?? null)

// Without a browser, skipped (saying so at the end of the run), except under CI, where this fails saying why.
it.skipIf(skipBrowserTests)("has Chromium to drive", () => {
  expect(testBrowser.available, missingChromium()).toBe(true)
})

describe.skipIf(skipBrowserTests)("dashboard in a browser", { timeout: 60_000 }, () => {
  let server: RealServer
  let browser: Browser
  let page: Page
  let key: string
  let seeded: Seeded

  /** The API itself, with the signed-in key, for the numbers the page must show. */
  const api = async (path: string, options: { key?: string; project?: boolean } = {}) => {
    const headers: Record<string, string> = { authorization: `Bearer ${options.key ?? key}` }
    if (options.project !== false) headers["service-project-id"] = String(seeded.projectId)
    const response = await fetch(`${server.baseUrl}/api/v1${path}`, { headers })
    return { status: response.status, body: await response.json().catch(() => undefined) as any }
  }

  const shoot = async (name: string) => {
    await page.mouse.move(0, 0)
    await page.screenshot({ path: `${screenshots}${name}.png`, fullPage: true, animations: "disabled" })
  }

  const overviewReady = () => page.waitForSelector('#overview[data-ready="true"]')

  beforeAll(async () => {
    if (!testBrowser.available) throw new Error(missingChromium())
    await mkdir(screenshots, { recursive: true })
    await buildWeb()
    server = await startRealServer()
    const organization = JSON.parse(await server.cli("orgs", "create", "Demo Organization", "--json")) as { id: number }
    key = (JSON.parse(await server.cli("keys", "create", "--org", String(organization.id), "--name", "marketing laptop", "--abilities", "*", "--json")) as { key: string }).key
    seeded = await seedProject(server.baseUrl, key, DAYS, server.importAnswers)
    browser = await launchBrowser()
    page = browser.page
    await browser.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.baseUrl })
  }, 600_000)

  afterAll(async () => {
    await browser?.close()
    await server?.stop()
  }, 60_000)

  it("signs in with a pasted key, kept in sessionStorage only and never in a URL", async () => {
    await page.goto(`${server.baseUrl}/`)
    await page.waitForURL(`${server.baseUrl}/sign-in`)
    await shoot("sign-in")
    await page.fill("#api-key", key)
    await page.click("button[type=submit]")
    await page.waitForSelector("main#main h1:text('Overview')")
    expect(new URL(page.url()).pathname).toBe("/")
    expect(await page.evaluate(() => sessionStorage.getItem("bvm.key"))).toBe(key)
    expect(await page.evaluate(() => localStorage.length)).toBe(0)
    expect((await browser.context.cookies()).length).toBe(0)
    // Every image (the logo) is drawn.
    const images = await page.locator("img").evaluateAll((all) => all.map((image) => (image as HTMLImageElement).complete && (image as HTMLImageElement).naturalWidth > 0))
    expect(images).toEqual([true])
    // The project switcher lists the key's projects from /me, and switches the pages to another one.
    expect(await page.locator(".project-switcher option").allTextContents()).toEqual(["Northwind CRM", "Contoso Support"])
    await overviewReady()
    await page.selectOption(".project-switcher select", String(seeded.otherProjectId))
    await page.waitForSelector("#overview .notice:has-text('no own brand yet')")
    await overviewReady()
    expect(await page.evaluate(() => sessionStorage.getItem("bvm.project"))).toBe(String(seeded.otherProjectId))
    await page.selectOption(".project-switcher select", String(seeded.projectId))
    await page.waitForSelector("#own-brand")
  })

  it("shows on the Overview the numbers the API gives, for the default period of 30 days", async () => {
    await overviewReady()
    await page.waitForSelector(".timechart[data-drawn]")
    await shoot("overview")
    const query = `start_date=${day(-29)}&end_date=${day(0)}`
    const rows = (await api(`/analytics/brands?${query}&sort_by=visibility&sort_order=desc&per_page=25&page=1`)).body.data as Array<any>
    expect(rows.length).toBe(6)
    expect(rows.some((row) => row.visibility_change_significant)).toBe(true)

    // The own brand's figures.
    const own = rows.find((row) => row.brand.is_own)!
    expect(numberIn(await page.textContent('#own-brand [data-measure="visibility"]') ?? "")).toBe(own.visibility)
    expect(numberIn(await page.textContent('#own-brand [data-measure="share_of_voice"]') ?? "")).toBe(own.share_of_voice)
    expect(numberIn(await page.textContent('#own-brand [data-measure="responses_count"]') ?? "")).toBe(own.responses_count)

    // The whisker charts draw every brand, the own one highlighted; significant changes are marked.
    const labels = await page.locator("#brands .whiskers").first().locator("text.label").allTextContents()
    expect(labels.map((label) => label.replace(/ ✱$/, ""))).toEqual(rows.map((row) => row.brand.name))
    for (const [index, row] of rows.entries()) expect(/ ✱$/.test(labels[index]!)).toBe(row.visibility_change_significant)
    expect(await page.locator("#brands .whiskers").first().locator("g.row.own text.label").textContent()).toContain(own.brand.name)

    // The table view holds the same numbers as the API.
    await page.click("#brands button:text-is('Table')")
    expect(await brandsTable(page)).toEqual(rows.map(expectedRow))
    await shoot("overview-table")
    await page.click("#brands button:text-is('Chart')")

    // The trend: the own brand first, then the top competitors, bucket by bucket.
    const series = (await api(`/analytics/brands/time-series?${query}&interval=day&metric=visibility&top_n=5`)).body.data.series as Array<any>
    const expected = [...series.filter((s) => s.brand.is_own), ...series.filter((s) => !s.brand.is_own).slice(0, 4)]
    await page.click("#trend button:text-is('Table')")
    const header = await page.locator("#trend thead th").allTextContents()
    expect(header.slice(1)).toEqual(expected.map((s) => s.brand.name))
    const cells = await page.locator("#trend tbody tr").evaluateAll((trs) => trs.map((tr) => Array.from(tr.children).map((cell) => cell.textContent ?? "")))
    expect(cells.length).toBe(30)
    expect(cells.map((row) => row[0])).toEqual(expected[0].data.map((point: any) => point.timestamp.slice(0, 10)))
    expect(cells.map((row) => row.slice(1).map((cell) => numberIn(cell.split("(")[0]!)))).toEqual(
      expected[0].data.map((_: unknown, bucket: number) => expected.map((s) => s.data[bucket].value))
    )
    await page.click("#trend button:text-is('Chart')")
  })

  it("reloads the Overview from the API when the period and a filter change, and keeps them on reload", async () => {
    await page.selectOption("form.filters select", "7")
    await page.click("details.multiselect:has(.multiselect-label:text-is('Platforms')) summary")
    await page.check("details.multiselect label:has-text('Perplexity') input")
    await page.waitForURL(/platforms=perplexity/)
    expect(new URL(page.url()).searchParams.get("days")).toBe("7")
    const rows = (await api(`/analytics/brands?start_date=${day(-6)}&end_date=${day(0)}&platforms[]=perplexity&sort_by=visibility&sort_order=desc&per_page=25`)).body.data as Array<any>
    // Perplexity answers the US monitor's 5 prompts once a day; the window holds 6 days of answers.
    expect(rows.find((row) => row.brand.is_own).responses_count).toBe(5 * 6)
    await page.click("#brands button:text-is('Table')")
    await expect.poll(() => brandsTable(page), { timeout: 10_000 }).toEqual(rows.map(expectedRow))

    // A reload of the page (a client route with its query) keeps the key, the period and the filter.
    await page.reload()
    await overviewReady()
    expect(await page.inputValue("form.filters select")).toBe("7")
    expect(await page.textContent("details.multiselect:has(.multiselect-label:text-is('Platforms')) .multiselect-value")).toBe("Perplexity")
    await page.click("#brands button:text-is('Table')")
    expect(await brandsTable(page)).toEqual(rows.map(expectedRow))
  })

  it("draws the trend on honest axes: percentages within 0–100%, buckets labelled by their ISO date, never by the hour", async () => {
    for (const [days, metric] of [[30, "visibility"], [30, "share_of_voice"], [30, "average_sentiment"], [7, "visibility"]] as const) {
      await page.goto(`${server.baseUrl}/?days=${days}&metric=${metric}`)
      await overviewReady()
      const chart = await trendChart(page)
      const series = (await api(`/analytics/brands/time-series?start_date=${day(1 - days)}&end_date=${day(0)}&interval=day&metric=${metric}&top_n=5`)).body.data
      const buckets = (series.series[0].data as Array<any>).map((point) => point.timestamp.slice(0, 10))
      // Both ends of the value axis within 0–100 (a percentage, or sentiment's 0–100 scale), from 0.
      expect(chart.y, `${days} days, ${metric}`).toEqual([0, expect.any(Number)])
      expect(chart.y[1], `${days} days, ${metric}`).toBeLessThanOrEqual(100)
      expect(chart.yLabels.every((label) => Number.parseFloat(label) <= 100), chart.yLabels.join(" ")).toBe(true)
      // Every time tick is a bucket's date, written as the rest of the page writes dates.
      expect(chart.xLabels.length).toBeGreaterThan(1)
      for (const label of chart.xLabels) expect(buckets, `${days} days: ${chart.xLabels.join(" ")}`).toContain(label)
    }
  })

  it("picks weekly buckets past 60 days, which the user can change, and draws each series' 95% band on request", async () => {
    await page.goto(`${server.baseUrl}/?days=90`)
    await overviewReady()
    expect(await page.inputValue("#trend label:has(> span:text-is('Interval')) select")).toBe("week")
    const weekly = (await api(`/analytics/brands/time-series?start_date=${day(-89)}&end_date=${day(0)}&interval=week&metric=visibility&top_n=5`)).body.data
    await page.click("#trend button:text-is('Table')")
    expect(await page.locator("#trend thead th").first().textContent()).toBe("Week of")
    expect(await page.locator("#trend tbody th").allTextContents()).toEqual(weekly.series[0].data.map((point: any) => point.timestamp.slice(0, 10)))
    await page.click("#trend button:text-is('Chart')")
    // The user's choice wins, and stays in the address.
    await page.selectOption("#trend label:has(> span:text-is('Interval')) select", "day")
    await page.waitForURL(/interval=day/)
    await overviewReady()
    await expect.poll(async () => (await trendChart(page)).buckets).toBe(90)

    // The bands: each series' Wilson interval at 95% on every bucket, as the API computes it for a period.
    await page.goto(`${server.baseUrl}/?days=30`)
    await overviewReady()
    expect((await trendChart(page)).bands).toBe(0)
    await page.check("#trend label:has-text('95% bands') input")
    await expect.poll(async () => (await trendChart(page)).bands).toBe(5)
    const series = (await api(`/analytics/brands/time-series?start_date=${day(-29)}&end_date=${day(0)}&interval=day&metric=visibility&top_n=5`)).body.data.series as Array<any>
    const own = series.find((item) => item.brand.is_own)
    await page.click("#trend button:text-is('Table')")
    const first = await page.locator("#trend tbody tr").first().locator("td").first().textContent() ?? ""
    const point = own.data[0]
    const band = wilson(point.count, point.total)!
    expect(first).toContain(`${point.value.toFixed(2)}%`)
    expect(first).toContain(`95%: ${band.low.toFixed(2)}% – ${band.high.toFixed(2)}%`)
    await page.click("#trend button:text-is('Chart')")
  })

  it("marks a significant change with one mark that means only that, explained where it shows; ▲ ▼ are gone", async () => {
    await page.goto(`${server.baseUrl}/?days=30`)
    await overviewReady()
    const rows = (await api(`/analytics/brands?start_date=${day(-29)}&end_date=${day(0)}&sort_by=visibility&sort_order=desc&per_page=25`)).body.data as Array<any>
    const own = rows.find((row) => row.brand.is_own)
    // The cards: the change with its sign; the mark only where the API's test says significant, and its key beside them.
    expect(await page.locator('#own-brand .kpi:has(h2:text-is("Visibility")) .change').textContent()).toMatch(own.visibility_change > 0 ? /^\+/ : /^−/)
    expect(await page.locator('#own-brand .kpi:has(h2:text-is("Visibility")) .significance').count()).toBe(own.visibility_change_significant ? 1 : 0)
    expect(await page.locator('#own-brand .kpi:has(h2:text-is("Average position")) .significance').count()).toBe(0)
    expect(await page.textContent("#own-brand-key")).toContain("✱ significant change against the previous period")
    expect(await page.textContent("#brands .whisker-legend")).toContain("✱ after a name: significant change against the previous period")
    // The table: the same mark in the change cells, its meaning in the caption; sorted headers say their order otherwise.
    await page.click("#brands button:text-is('Table')")
    const marks = await page.locator("#brands tbody tr").evaluateAll((trs) =>
      trs.map((tr) => tr.querySelector('[data-field="visibility_change"]')?.textContent?.includes("✱") ?? false)
    )
    expect(marks).toEqual(rows.map((row) => row.visibility_change_significant))
    expect(await page.textContent("#brands caption")).toContain("✱")
    // Its eleven columns in view at 1366 px, nothing to scroll sideways.
    expect(await page.locator("#brands .table-wrap").evaluate((wrap) => wrap.scrollWidth - wrap.clientWidth)).toBeLessThanOrEqual(0)
    expect(await page.textContent("#brands thead th[aria-sort]")).toMatch(/↓$/)
    expect(await page.textContent("main")).not.toMatch(/[▲▼]/)
    await page.click("#brands button:text-is('Chart')")
    expect(await page.textContent("main")).not.toMatch(/[▲▼]/)
  })

  it("shows each change with the previous period's value and counts, flagged “small sample” where a period holds under 30", async () => {
    // At 30 days (580 answers a period) nothing is flagged: the table's rows, counts included, are the API's.
    await page.goto(`${server.baseUrl}/?days=30`)
    await overviewReady()
    expect(await page.locator("#own-brand .badge-small").count()).toBe(0)
    const month = (await api(`/analytics/brands?start_date=${day(-29)}&end_date=${day(0)}&sort_by=visibility&sort_order=desc&per_page=25`)).body.data as Array<any>
    const ownMonth = month.find((row) => row.brand.is_own)
    expect(ownMonth.previous_responses_count).toBe(600)
    expect(await page.textContent('#own-brand .kpi:has(h2:text-is("Visibility")) .change-basis')).toBe(
      `was ${percentage(ownMonth.previous_mentioned_count, ownMonth.previous_responses_count)!.toFixed(2)}% ${ownMonth.previous_mentioned_count} of 600`
    )
    await page.click("#brands button:text-is('Table')")
    expect(await brandsTable(page)).toEqual(month.map(expectedRow))
    expect(await page.locator("#brands tbody .badge-small").count()).toBe(0)
    await page.click("#brands button:text-is('Chart')")

    // Two days of Perplexity: 10 answers in the window, 10 in the two days before.
    const [start, end] = [day(-2), day(-1)]
    await page.goto(`${server.baseUrl}/?start=${start}&end=${end}&platforms=perplexity`)
    await overviewReady()
    const rows = (await api(`/analytics/brands?start_date=${start}&end_date=${end}&platforms[]=perplexity&sort_by=visibility&sort_order=desc&per_page=25`)).body.data as Array<any>
    const own = rows.find((row) => row.brand.is_own)
    expect([own.responses_count, own.previous_responses_count]).toEqual([10, 10])
    // The cards: each change with what it rests on, and the flag.
    const card = (name: string) => `#own-brand .kpi:has(h2:text-is("${name}"))`
    expect(await page.textContent(`${card("Visibility")} .change-basis`)).toBe(
      `was ${percentage(own.previous_mentioned_count, 10)!.toFixed(2)}% ${own.previous_mentioned_count} of 10`
    )
    expect(await page.locator(`${card("Visibility")} .badge-small`).textContent()).toBe("small sample")
    expect(await page.getAttribute(`${card("Visibility")} .badge-small`, "title")).toContain("fewer than 30 answers in this period or the previous one")
    if (own.average_position_change !== null) {
      expect(await page.textContent(`${card("Average position")} .change-basis`)).toBe(`${own.previous_mentioned_count} → ${own.mentioned_count} mentions`)
      expect(await page.locator(`${card("Average position")} .badge-small`).count()).toBe(1)
    }
    expect(await page.textContent("#own-brand .kpi-key")).toContain("“small sample”: fewer than 30 answers in this period or the previous one")
    expect(await page.locator(`${card("Share of voice")} .badge-small`).count()).toBe(own.share_of_voice_change === null ? 0 : 1)
    // The table: every visibility change flagged (10 answers a period), each with the API's previous counts.
    await page.click("#brands button:text-is('Table')")
    const shown = await brandsTable(page)
    expect(shown).toEqual(rows.map(expectedRow))
    expect(rows.every((row) => row.visibility_change !== null)).toBe(true)
    expect(shown.every((row) => row.visibility_small_sample)).toBe(true)
    // Share of voice too, however many mentions: they come from those 10 answers.
    expect(shown.every((row, index) => row.share_of_voice_small_sample === (rows[index].share_of_voice_change !== null))).toBe(true)
    expect(await page.textContent("#brands caption")).toContain("“small sample”: fewer than 30 answers")
    await shoot("overview-small-sample")
    await page.click("#brands button:text-is('Chart')")
  })

  it("draws the brand intervals readably on a 390 px screen", async () => {
    await page.setViewportSize({ width: 390, height: 844 })
    try {
      await page.goto(`${server.baseUrl}/?days=30`)
      await overviewReady()
      const sizes = await page.locator("#brands .whiskers svg").evaluateAll((svgs) =>
        svgs.map((svg) => ({
          right: svg.getBoundingClientRect().right,
          labels: Array.from(svg.querySelectorAll("text.label")).map((text) => text.getBoundingClientRect().height),
          ticks: Array.from(svg.querySelectorAll(".tick text")).map((text) => text.getBoundingClientRect().height)
        }))
      )
      expect(sizes.length).toBe(2)
      for (const size of sizes) {
        expect(size.right).toBeLessThanOrEqual(390)
        // Text drawn at least 12 px high (a 12.5 px font): no longer shrunk with the drawing.
        expect(Math.min(...size.labels)).toBeGreaterThanOrEqual(12)
        expect(Math.min(...size.ticks)).toBeGreaterThanOrEqual(11)
      }
      await shoot("overview-narrow")
    } finally {
      await page.setViewportSize({ width: 1366, height: 900 })
    }
  })

  it("lists prompts with the own brand's visibility and top competitor, missing prompts first, as the API does", async () => {
    await page.click("nav.sidenav a:text-is('Prompts')")
    await page.waitForSelector("main h1:text('Prompts')")
    await page.waitForSelector("main table tbody tr")
    const rows = (await api(`/analytics/prompts?start_date=${day(-29)}&end_date=${day(0)}&sort_by=own_visibility&sort_order=asc&per_page=25`)).body.data as Array<any>
    expect(rows.length).toBe(10)
    const shown = await page.locator("main table tbody tr").evaluateAll((trs) =>
      trs.map((tr) => ({ text: tr.querySelector("th a")?.textContent, visibility: tr.querySelector('[data-field="own_visibility"]')?.textContent ?? null, missing: tr.querySelector(".badge-missing") !== null }))
    )
    expect(shown.map((row) => row.text)).toEqual(rows.map((row) => row.prompt.text))
    expect(shown.map((row) => numberIn(row.visibility ?? "—"))).toEqual(rows.map((row) => row.own?.visibility ?? null))
    expect(shown.map((row) => row.missing)).toEqual(rows.map((row) => row.own !== null && row.own.mentioned_count === 0))
    // The seeded prompt whose answers never name the own brand comes first, marked.
    expect(shown[0]).toMatchObject({ text: "Simple CRM for freelancers and consultants?", missing: true })
    await shoot("prompts")
  })

  it("sorts the sources by a column with the API's sort, the share of answers by its count, and shows the URLs and their usage over time", async () => {
    await page.setViewportSize({ width: 1440, height: 900 })
    await page.click("nav.sidenav a:text-is('Sources')")
    await page.waitForSelector("main h1:text('Sources')")
    const table = "section[aria-labelledby=sources-title] table"
    const domains = () => page.locator(`${table} tbody tr th`).allTextContents()
    const sources = async (order: string) =>
      (await api(`/analytics/sources?start_date=${day(-29)}&end_date=${day(0)}&sort_by=used_count&sort_order=${order}&per_page=25`)).body.data as Array<any>
    // The share of answers sorts by the count it is made of, not by its rounded whole percent.
    const descending = await sources("desc")
    await expect.poll(domains, { timeout: 10_000 }).toEqual(descending.map((row) => row.source.domain))
    expect(await page.getAttribute(`${table} thead th:has-text('Share of answers')`, "aria-sort")).toBe("descending")
    await page.click(`${table} thead button:has-text('Share of answers')`)
    await page.waitForURL(/sort=used_count&order=asc/)
    const ascending = await sources("asc")
    await expect.poll(domains, { timeout: 10_000 }).toEqual(ascending.map((row) => row.source.domain))
    const counts = ascending.map((row) => row.used_count)
    expect(counts).toEqual([...counts].sort((a, b) => a - b))
    await page.click(`${table} thead button:has-text('Answers citing')`)
    await page.waitForURL(/sort=used_count&order=desc/)
    await expect.poll(domains, { timeout: 10_000 }).toEqual(descending.map((row) => row.source.domain))
    expect(await page.getAttribute(`${table} thead th:has-text('Answers citing')`, "aria-sort")).toBe("descending")
    // At 1440 px every column is in view, "Last seen" included: nothing to scroll sideways.
    await fitsItsCard(page, "Last seen")
    await page.waitForSelector("#usage .timechart[data-drawn]")
    await shoot("sources")
    await page.click("main button:text-is('URLs')")
    await page.waitForURL(/view=urls/)
    await page.waitForSelector("section[aria-labelledby=sources-title] tbody tr .url a")
    await fitsItsCard(page, "Last seen")
    await page.setViewportSize({ width: 1366, height: 900 })
  })

  it("opens an answer: its text with the brands it names marked and its citations numbered and linked", async () => {
    await page.click("nav.sidenav a:text-is('Answers')")
    await page.waitForSelector("main h1:text('Answers')")
    await page.selectOption("form.filters label:has(> span:text-is('Platform')) select", "perplexity")
    await page.waitForURL(/platform=perplexity/)
    // Newest first, as the API lists them when asked.
    const listed = (await api("/responses?platform=perplexity&per_page=25&sort_by=collected_at&sort_order=desc")).body
    await expect.poll(() => page.textContent(".pager-range")).toBe(`1–25 of ${listed.meta.total.toLocaleString("en-US")}`)
    const shownIds = () => page.locator("a.answer-link").evaluateAll((links) => links.map((link) => Number(link.getAttribute("href")!.split("/").pop())))
    expect(await shownIds()).toEqual(listed.data.map((row: any) => row.id))
    expect(await page.getAttribute("main thead th:has-text('Collected')", "aria-sort")).toBe("descending")
    await shoot("answers")
    // The sort control: oldest first, then back.
    await page.click("main thead button:has-text('Collected')")
    await page.waitForURL(/order=asc/)
    const oldest = (await api("/responses?platform=perplexity&per_page=25&sort_by=collected_at&sort_order=asc")).body.data
    await expect.poll(shownIds).toEqual(oldest.map((row: any) => row.id))
    await page.click("main thead button:has-text('Collected')")
    await page.waitForURL((url) => url.searchParams.get("order") !== "asc")
    await expect.poll(shownIds).toEqual(listed.data.map((row: any) => row.id))
    await page.locator("a.answer-link").first().click()
    await page.waitForSelector("#answer-text")
    const id = Number(new URL(page.url()).pathname.split("/").pop())
    expect(id).toBe(listed.data[0].id)
    const mentions = (await api(`/brand-mentions?response_id=${id}&include=brand&per_page=100`)).body.data as Array<any>
    const citations = (await api(`/citations?response_id=${id}&per_page=100`)).body.data as Array<any>
    expect(mentions.length).toBeGreaterThan(0)
    expect(citations.length).toBeGreaterThan(0)

    const marked = new Set(await page.locator("#answer-text mark").evaluateAll((marks) => marks.map((mark) => mark.getAttribute("title"))))
    expect(marked).toEqual(new Set(mentions.map((mention) => mention.brand.name)))
    const links = await page.locator("ol#citations li").evaluateAll((items) =>
      items.map((item) => ({ id: item.id, href: item.querySelector("a")?.getAttribute("href") }))
    )
    expect(links).toEqual(citations.sort((a, b) => a.position - b.position).map((citation) => ({ id: `citation-${citation.position}`, href: citation.url })))
    // The text's [n] markers point at the numbered citations.
    for (const href of await page.locator("#answer-text sup a").evaluateAll((anchors) => anchors.map((a) => a.getAttribute("href")))) {
      expect(links.map((link) => `#${link.id}`)).toContain(href)
    }
    expect(await page.locator("table:has(caption:text('Brands named')) tbody tr").count()).toBe(mentions.length)
    await shoot("answer")
  })

  describe("a project with a single answer, written in markdown with hostile bits", () => {
    let sparse: number
    let answerId: number

    beforeAll(async () => {
      const call = async (method: string, path: string, body: unknown, project?: number) => {
        const headers: Record<string, string> = { authorization: `Bearer ${key}`, "content-type": "application/json" }
        if (project !== undefined) headers["service-project-id"] = String(project)
        const response = await fetch(`${server.baseUrl}/api/v1${path}`, { method, headers, body: JSON.stringify(body) })
        const text = await response.text()
        if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`)
        return text === "" ? undefined : JSON.parse(text).data
      }
      sparse = (await call("POST", "/projects", { name: "Sparse Dental" })).id
      const own = (await call("POST", "/brands", { name: "Acme CRM", domains: ["acme-crm.example"] }, sparse)).id
      await call("POST", "/brands", { name: "Zoho CRM" }, sparse)
      await call("PATCH", `/projects/${sparse}`, { brand_id: own })
      const monitor = (await call("POST", "/monitors", { name: "Dental US", country: "US", platforms: ["chatgpt"] }, sparse)).id
      const prompt = (await call("POST", "/prompts", { monitor_id: monitor, text: "Best CRM for a dental practice?" }, sparse)).id
      answerId = (await call("POST", "/responses", { prompt_id: prompt, platform: "chatgpt", text: hostileAnswer, citations: ["https://acme-crm.example/dentists"] }, sparse)).id
      await page.evaluate((id) => sessionStorage.setItem("bvm.project", String(id)), sparse)
    })

    afterAll(async () => {
      await page.evaluate((id) => sessionStorage.setItem("bvm.project", String(id)), seeded.projectId)
      await page.goto(`${server.baseUrl}/`)
      await overviewReady()
    })

    it("keeps the trend's axis within 100% and its lone point inside the plot", async () => {
      await page.goto(`${server.baseUrl}/?days=30`)
      await overviewReady()
      expect(await page.textContent('#own-brand [data-measure="visibility"]')).toBe("100.00%")
      const chart = await trendChart(page)
      expect(chart.y).toEqual([0, 100])
      // The last bucket (today, the only answer) sits inside the plot, not on its edge.
      expect(chart.x[1]).toBeGreaterThan(Date.parse(`${day(0)}T00:00:00.000Z`) / 1000)
    })

    it("leaves a source's changes blank when the previous period holds no answer, as the brands' are", async () => {
      await page.goto(`${server.baseUrl}/sources?days=30`)
      const row = "section[aria-labelledby=sources-title] tbody tr:has(th:text-is('acme-crm.example'))"
      await page.waitForSelector(row)
      const cells = await page.locator(`${row} td`).allTextContents()
      // Answers citing, its change, share, its change, citations per answer, its change, first and last seen.
      expect(cells.slice(0, 6)).toEqual(["1", "—", "100%", "—", "1.00", "—"])
      expect(await page.textContent("section[aria-labelledby=sources-title] .card-note")).toContain("no answer in the previous period")
      // The brands' changes, for the same reason.
      await page.goto(`${server.baseUrl}/?days=30`)
      await overviewReady()
      expect(await page.textContent('#own-brand .kpi:has(h2:text-is("Visibility")) .change')).toBe("—")
    })

    it("renders an answer's markdown, in its text and its snippet, with raw HTML and script links left inert", async () => {
      await page.goto(`${server.baseUrl}/answers`)
      await page.waitForSelector("a.answer-link")
      const snippet = await page.textContent("main tbody .excerpt") ?? ""
      expect(snippet).toMatch(/^Zoho CRM and Acme CRM are both good/)
      expect(snippet).not.toContain("**")
      await page.click("a.answer-link")
      await page.waitForSelector("#answer-text")
      expect(new URL(page.url()).pathname).toBe(`/answers/${answerId}`)
      const text = "#answer-text"
      // Markdown drawn: emphasis, a list, inline code, a table; brand names still marked inside them.
      expect(await page.locator(`${text} strong`).first().textContent()).toBe("Zoho CRM")
      expect(await page.locator(`${text} strong mark`).count()).toBe(1)
      expect(await page.locator(`${text} ol > li`).count()).toBe(2)
      expect(await page.locator(`${text} em mark.mark-own`).textContent()).toBe("Acme CRM")
      expect(await page.locator(`${text} code`).first().textContent()).toBe("Zoho CRM")
      expect(await page.locator(`${text} table td`).allTextContents()).toEqual(["Acme CRM", "$20"])
      // The cited link, numbered.
      expect(await page.getAttribute(`${text} a:has-text('their page')`, "href")).toBe("https://acme-crm.example/dentists")
      expect(await page.locator(`${text} a:has-text('their page') + sup`).textContent()).toBe("[1]")
      // Raw HTML is shown as the text it is, never made into elements.
      expect(await page.locator(`${text} script, ${text} img, ${text} iframe`).count()).toBe(0)
      expect(await page.textContent(text)).toContain('<script>window.__pwned = "script"</script>')
      expect(await page.textContent(text)).toContain("<img src=\"x\" onerror=")
      // Links keep to http, https and mailto: the javascript: one is its text alone.
      const hrefs = await page.locator(`${text} a`).evaluateAll((anchors) => anchors.map((a) => a.getAttribute("href") ?? ""))
      for (const href of hrefs) expect(href).toMatch(/^(https?:|mailto:|#citation-)/)
      expect(hrefs).toContain("mailto:sales@acme-crm.example")
      expect(await page.locator(`${text} a:has-text('this trick')`).count()).toBe(0)
      await page.click(`${text} :text('this trick')`)
      expect(await page.evaluate(() => (window as any).__pwned)).toBeUndefined()
      await shoot("answer-markdown")
    })
  })

  it("runs a monitor now from the Collector and shows the new run's jobs", async () => {
    await page.click("nav.sidenav a:text-is('Collector')")
    await page.waitForSelector("main h1:text('Collector')")
    await page.click("button[aria-label='Run US daily now']")
    // No worker runs beside this server: the notice says which platforms wait (test/browser/collector.test.ts).
    await page.waitForSelector(".notice:has-text('started with 10 jobs')")
    const runs = (await api(`/monitors/${seeded.monitorIds[0]}/runs?per_page=15`)).body.data as Array<any>
    expect(runs[0]).toMatchObject({ trigger: "manual", jobs: { total: 10, pending: 10 } })
    await expect.poll(() => page.locator("table:has(caption:text('Runs of US daily')) tbody tr").first().locator("td").allTextContents())
      .toEqual(expect.arrayContaining(["manual", "10"]))
    await shoot("collector")
  })

  it("creates a prompt in Setup (showing the API's validation message beside the field first), then deletes it", async () => {
    await page.click("nav.sidenav a:text-is('Setup')")
    await page.click("nav.tabs a:text-is('Prompts')")
    await page.waitForURL(/\/setup\/prompts$/)
    await page.waitForSelector("#prompt-monitor option", { state: "attached" })
    await page.click("button:text-is('Create prompt')")
    await page.waitForSelector("#prompt-text-errors")
    expect(await page.textContent("#prompt-text-errors")).toBe("The text field is required.")
    expect(await page.getAttribute("#prompt-text", "aria-invalid")).toBe("true")
    expect(await page.getAttribute("#prompt-text", "aria-describedby")).toContain("prompt-text-errors")
    await shoot("setup")

    const text = "Which CRM has the best mobile app?"
    await page.fill("#prompt-text", text)
    await page.check("fieldset:has(legend:text-is('Tags')) label:has-text('pricing') input")
    await page.click("button:text-is('Create prompt')")
    await page.waitForSelector(`.notice-success:has-text('created')`)
    const created = ((await api("/prompts?per_page=100")).body.data as Array<any>).find((prompt) => prompt.text === text)
    expect(created).toMatchObject({ monitor_id: seeded.monitorIds[0], tags: [{ name: "pricing" }] })
    await page.waitForSelector(`main table tbody th:text-is('${text}')`)

    await page.click(`button[aria-label='Delete prompt ${text}']`)
    await page.click("dialog[open] button:text-is('Delete')")
    await page.waitForSelector(".notice-success:has-text('deleted')")
    expect((await api(`/prompts/${created.id}`)).status).toBe(404)
    // The notice shows as the list reloads: the row leaves with the new page.
    await page.waitForSelector(`main table tbody th:text-is('${text}')`, { state: "detached" })
  })

  it("creates a monitor with simulated answers in Setup → Monitors, the toggle labelled and explained, and turns it off", async () => {
    await page.click("nav.sidenav a:text-is('Setup')")
    await page.click("nav.tabs a:text-is('Monitors')")
    await page.waitForURL(/\/setup\/monitors$/)
    await page.waitForSelector("main table tbody tr:has-text('US daily')")
    // The seeded monitors' answers are real: the list says so.
    expect(await page.textContent("main table tbody tr:has-text('US daily')")).toContain("real")
    // Off by default; its label and explanation tied to it.
    const toggle = page.locator("#monitor-simulated")
    expect(await toggle.isChecked()).toBe(false)
    expect(await page.textContent("label:has(#monitor-simulated)")).toContain("Simulated answers")
    const hint = await page.textContent(`#${await toggle.getAttribute("aria-describedby")}`) ?? ""
    expect(hint).toContain("instead of asking the AI platforms")
    expect(hint).toContain("made up")
    expect(hint).toContain("[Simulated answer]")

    const name = "Trial (simulated)"
    await page.fill("#monitor-name", name)
    await page.fill("#monitor-country", "US")
    await page.check("fieldset:has(legend:text-is('Platforms')) label:has-text('ChatGPT') input")
    await toggle.check()
    await shoot("setup-monitor-simulated")
    await page.click("button:text-is('Create monitor')")
    await page.waitForSelector(".notice-success:has-text('created')")
    const find = async () => ((await api("/monitors?per_page=100")).body.data as Array<any>).find((monitor) => monitor.name === name)
    const created = await find()
    expect(created).toMatchObject({ simulated: true, country: "US", platforms: ["chatgpt"] })
    const row = `main table tbody tr:has(th:text-is('${name}'))`
    await page.waitForSelector(row)
    expect(await page.locator(`${row} .badge-simulated`).textContent()).toBe("simulated")

    // Edited: the form shows it on; turned off, the API says false.
    await page.click(`button[aria-label='Edit monitor ${name}']`)
    await page.waitForSelector(`#monitors-form-title:has-text('${name}')`)
    expect(await page.isChecked("#monitor-simulated")).toBe(true)
    await page.uncheck("#monitor-simulated")
    await page.click("button:text-is('Save monitor')")
    await page.waitForSelector(".notice-success:has-text('saved')")
    expect((await find()).simulated).toBe(false)
    await expect.poll(() => page.locator(`${row} td`).allTextContents()).toContain("real")

    await page.click(`button[aria-label='Delete monitor ${name}']`)
    await page.click("dialog[open] button:text-is('Delete')")
    await page.waitForSelector(".notice-success:has-text('deleted')")
    expect(await find()).toBeUndefined()
  })

  it("says “own brand” in Setup → Brands where the API says is_own, instead of its classification", async () => {
    await page.click("nav.tabs a:text-is('Brands')")
    await page.waitForURL(/\/setup\/brands$/)
    await page.waitForSelector("main table tbody tr:has-text('Northwind CRM')")
    const brands = (await api("/brands?per_page=100")).body.data as Array<any>
    const shown = await page.locator("main table tbody tr").evaluateAll((trs) => trs.map((tr) => [tr.querySelector("th")?.firstChild?.textContent, tr.children[1]?.textContent]))
    expect(shown).toEqual(brands.map((brand) => [brand.name, brand.is_own ? "own brand" : brand.classification]))
    expect(shown.filter(([, classification]) => classification === "own brand").map(([name]) => name)).toEqual(["Northwind CRM"])
  })

  let readOnlyKey: string

  it("names abilities in words on the Keys page, and lists the projects right under “Only these:”", async () => {
    await page.click("nav.sidenav a:text-is('Keys')")
    await page.waitForSelector("main h1:text('API keys')")
    const code = /\b[a-z]+:(read|write|manage)\b|\(\*\)/
    const choices = await page.locator("#create-key-title ~ form fieldset:has(legend:text-is('Abilities (those of your key)')) label").allTextContents()
    expect(choices.length).toBe((await api("/me", { project: false })).body.data.abilities.length)
    for (const choice of choices) expect(choice).not.toMatch(code)
    expect(choices).toContain("Read analytics")
    expect(choices).toContain("Manage API keys")
    expect(await page.locator("main table tbody").textContent()).not.toMatch(code)
    expect(await page.textContent("main table tbody tr:has-text('marketing laptop') .abilities")).toBe("Everything")
    // The two choices sit one under the other, the projects right below the second, no gap between.
    const every = await page.locator("label:has-text('Every project of the organization')").boundingBox()
    const only = await page.locator("label:has-text('Only these:')").boundingBox()
    expect(only!.y - (every!.y + every!.height)).toBeLessThan(8)
    await page.check("label:has-text('Only these:') input")
    const first = await page.locator("#key-projects-list label").first().boundingBox()
    expect(first!.y - (only!.y + only!.height)).toBeLessThan(8)
    await page.check("label:has-text('Every project of the organization') input")
  })

  it("creates a key and shows it once, with a copy button", async () => {
    await page.click("nav.sidenav a:text-is('Keys')")
    await page.waitForSelector("main h1:text('API keys')")
    await page.fill("#key-name", "reporting")
    await page.click("button:text-is('Read-only')")
    await page.click("button:text-is('Create key')")
    await page.waitForSelector("#new-key")
    readOnlyKey = await page.inputValue("#new-key")
    expect(readOnlyKey).toMatch(/^bvm_[A-Za-z0-9]{40}$/)
    await page.click(".new-key button:text-is('Copy')")
    await page.waitForSelector(".new-key [role=status]:text('Copied')")
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(readOnlyKey)
    await shoot("keys")

    // The key works, with the abilities chosen.
    const me = await api("/me", { key: readOnlyKey, project: false })
    expect(me.status).toBe(200)
    expect(me.body.data.abilities.every((ability: string) => ability.endsWith(":read"))).toBe(true)

    // Once dismissed, it is nowhere to be seen again; the list shows its prefix only.
    await page.click("button:text-is('Done, I have stored it')")
    expect(await page.locator("#new-key").count()).toBe(0)
    await page.reload()
    await page.waitForSelector("main table tbody tr:has-text('reporting')")
    expect(await page.content()).not.toContain(readOnlyKey)
    expect(await page.textContent("main table tbody tr:has-text('reporting') code")).toBe(`${readOnlyKey.slice(0, 8)}…`)
  })

  it("revoking the signed-in key lands on sign-in with a clear message", async () => {
    await page.click("button[aria-label='Revoke key marketing laptop']")
    await page.waitForSelector("dialog[open] :text('you will be signed out')")
    await page.click("dialog[open] button:text-is('Revoke')")
    await page.waitForURL(/\/sign-in/)
    expect(await page.textContent("[role=alert]")).toContain("revoked")
    expect(await page.evaluate(() => sessionStorage.getItem("bvm.key"))).toBeNull()
    expect((await api("/me", { project: false })).status).toBe(401)
    await shoot("signed-out")
  })

  it("works with the keyboard alone: sign in, skip link, menu, sorting, filters", async () => {
    // The key field has the focus; Enter signs in.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("api-key")
    await page.keyboard.type(readOnlyKey)
    await page.keyboard.press("Enter")
    await page.waitForSelector("nav.sidenav")
    await page.keyboard.press("Tab")
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Skip to content")
    // Tab on to the menu's Sources link and follow it; the focus moves to the new page.
    for (let i = 0; i < 30 && (await page.evaluate(() => document.activeElement?.textContent)) !== "Sources"; i++) await page.keyboard.press("Tab")
    await page.keyboard.press("Enter")
    await page.waitForSelector("main h1:text('Sources')")
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("main")
    // A column header sorts with Enter.
    await page.focus("section[aria-labelledby=sources-title] thead button:has-text('Domain')")
    await page.keyboard.press("Enter")
    await page.waitForURL(/sort=domain/)
    // A filter opens with Enter, a box ticks with Space, Escape closes it.
    await page.focus("details.multiselect:has(.multiselect-label:text-is('Countries')) summary")
    await page.keyboard.press("Enter")
    await page.keyboard.press("Tab")
    await page.keyboard.press("Space")
    await page.waitForURL(/countries=/)
    await page.keyboard.press("Escape")
    expect(await page.evaluate(() => (document.activeElement as HTMLElement | null)?.tagName)).toBe("SUMMARY")
    expect(await page.getAttribute("details.multiselect:has(.multiselect-label:text-is('Countries'))", "open")).toBeNull()
    // Every focusable element shows where the focus is.
    const unmarked = await page.evaluate(() => {
      const missing: Array<string> = []
      for (const element of Array.from(document.querySelectorAll<HTMLElement>("a[href], button, select, input, summary"))) {
        element.focus()
        if (document.activeElement !== element) continue
        const style = getComputedStyle(element)
        if (style.outlineStyle === "none" || style.outlineWidth === "0px") missing.push(element.outerHTML.slice(0, 80))
      }
      return missing
    })
    expect(unmarked).toEqual([])
  })

  it("keeps the first page's JavaScript within 250 KB gzipped and draws the Overview of the demo project quickly", async () => {
    await page.goto(`${server.baseUrl}/`)
    await overviewReady()
    const scripts = await page.evaluate(() =>
      performance.getEntriesByType("resource").filter((entry) => (entry as PerformanceResourceTiming).initiatorType === "script")
        .map((entry) => ({ name: entry.name, bytes: (entry as PerformanceResourceTiming).encodedBodySize }))
    )
    expect(scripts.length).toBe(1)
    expect(scripts[0]!.bytes).toBeLessThanOrEqual(250 * 1024)
    const drawn = await page.evaluate(() => performance.getEntriesByName("overview-drawn")[0]?.startTime)
    expect(drawn).toBeGreaterThan(0)
    // Reported, not asserted (timing belongs in benchmarks): docs/dashboard.md keeps the measured values.
    console.info(`dashboard: first page's JavaScript ${(scripts[0]!.bytes / 1024).toFixed(1)} KB gzipped; Overview drawn ${Math.round(drawn!)} ms after navigation start (${seeded.answers} answers)`)
  })

  it("signs out: back on sign-in, the key and the project forgotten by the tab", async () => {
    await page.click(".topbar button.signout")
    await page.waitForURL(/\/sign-in/)
    expect(await page.evaluate(() => [sessionStorage.getItem("bvm.key"), sessionStorage.getItem("bvm.project")])).toEqual([null, null])
    await page.goto(`${server.baseUrl}/sources`)
    await page.waitForURL(/\/sign-in/)
  })

  it("made no request off 127.0.0.1, broke no Content-Security-Policy rule, threw no error, missed no file, put no key in a URL", () => {
    expect(browser.trespasses.offHost).toEqual([])
    expect(browser.trespasses.cspViolations).toEqual([])
    expect(browser.trespasses.pageErrors).toEqual([])
    expect(browser.trespasses.brokenAssets).toEqual([])
    expect(browser.trespasses.urls.length).toBeGreaterThan(50)
    expect(browser.trespasses.urls.filter((url) => url.includes("bvm_"))).toEqual([])
  })
})

/** The Overview's brand table, as numbers. */
const brandsTable = (page: Page) =>
  page.locator("#brands tbody tr").evaluateAll((trs) =>
    trs.map((tr) => {
      const field = (name: string) => tr.querySelector(`[data-field="${name}"]`)?.textContent ?? ""
      return {
        name: tr.querySelector("th")?.firstChild?.textContent ?? "",
        own: tr.classList.contains("own"),
        visibility: field("visibility"),
        visibility_ci: field("visibility_ci"),
        visibility_change: field("visibility_change"),
        share_of_voice: field("share_of_voice"),
        share_of_voice_counts: field("share_of_voice_counts"),
        share_of_voice_ci: field("share_of_voice_ci"),
        share_of_voice_change: field("share_of_voice_change"),
        average_position: field("average_position"),
        average_sentiment: field("average_sentiment"),
        mentioned_count: field("mentioned_count")
      }
    })
  ).then((rows) =>
    rows.map((row) => ({
      name: row.name,
      own: row.own,
      visibility: numberIn(row.visibility),
      visibility_ci: numbersIn(row.visibility_ci),
      visibility_change: numberIn(row.visibility_change),
      visibility_change_significant: row.visibility_change.includes("significant"),
      // After the change: the previous period's percentage and its counts (`was 48.00%`, `240 of 500`).
      visibility_previous: numbersIn(row.visibility_change).slice(1),
      visibility_small_sample: row.visibility_change.includes("small sample"),
      share_of_voice: numberIn(row.share_of_voice),
      share_of_voice_counts: numbersIn(row.share_of_voice_counts),
      share_of_voice_ci: numbersIn(row.share_of_voice_ci),
      share_of_voice_change: numberIn(row.share_of_voice_change),
      share_of_voice_change_significant: row.share_of_voice_change.includes("significant"),
      share_of_voice_previous: numbersIn(row.share_of_voice_change).slice(1),
      share_of_voice_small_sample: row.share_of_voice_change.includes("small sample"),
      average_position: numberIn(row.average_position),
      average_sentiment: numberIn(row.average_sentiment),
      counts: numbersIn(row.mentioned_count)
    }))
  )

/** Under 30 answers (or, for share of voice, all brands' mentions) in either period, a change is flagged (docs/dashboard.md). */
const SMALL_SAMPLE = 30

/** What brandsTable must read for an API row. */
const expectedRow = (row: any) => ({
  name: row.brand.name,
  own: row.brand.is_own,
  visibility: row.visibility,
  visibility_ci: row.visibility_ci === null ? [] : [row.visibility_ci.low, row.visibility_ci.high],
  visibility_change: row.visibility_change,
  visibility_change_significant: row.visibility_change_significant,
  visibility_previous: row.visibility_change === null
    ? []
    : [percentage(row.previous_mentioned_count, row.previous_responses_count), row.previous_mentioned_count, row.previous_responses_count],
  visibility_small_sample: row.visibility_change !== null && Math.min(row.responses_count, row.previous_responses_count) < SMALL_SAMPLE,
  share_of_voice: row.share_of_voice,
  share_of_voice_counts: [row.mentioned_count, row.total_mentions],
  share_of_voice_ci: row.share_of_voice_ci === null ? [] : [row.share_of_voice_ci.low, row.share_of_voice_ci.high],
  share_of_voice_change: row.share_of_voice_change,
  share_of_voice_change_significant: row.share_of_voice_change_significant,
  share_of_voice_previous: row.share_of_voice_change === null
    ? []
    : [percentage(row.previous_mentioned_count, row.previous_total_mentions), row.previous_mentioned_count, row.previous_total_mentions],
  share_of_voice_small_sample: row.share_of_voice_change !== null &&
    Math.min(row.responses_count, row.total_mentions, row.previous_responses_count, row.previous_total_mentions) < SMALL_SAMPLE,
  average_position: row.average_position,
  average_sentiment: row.average_sentiment,
  counts: [row.mentioned_count, row.responses_count]
})

/** What the trend's chart drew (TimeChart writes it on its element): its scales, tick labels, buckets and bands. */
const trendChart = async (page: Page) => {
  await page.waitForSelector("#trend .timechart[data-drawn]")
  return page.locator("#trend .timechart").evaluate((element) => {
    const data = (element as HTMLElement).dataset
    return {
      x: JSON.parse(data.xRange ?? "[]") as [number, number],
      y: JSON.parse(data.yRange ?? "[]") as [number, number],
      xLabels: JSON.parse(data.xLabels ?? "[]") as Array<string>,
      yLabels: JSON.parse(data.yLabels ?? "[]") as Array<string>,
      buckets: Number(data.buckets),
      bands: Number(data.bands ?? 0)
    }
  })
}

/** The sources table shows every column, `last` included, without scrolling sideways. */
const fitsItsCard = async (page: Page, last: string) => {
  const fit = await page.locator("section[aria-labelledby=sources-title]").evaluate((card, label) => {
    const wrap = card.querySelector(".table-wrap")!
    const header = Array.from(card.querySelectorAll("thead th")).find((th) => th.textContent?.includes(label))!
    return { scroll: wrap.scrollWidth, client: wrap.clientWidth, right: header.getBoundingClientRect().right, edge: wrap.getBoundingClientRect().right }
  }, last)
  expect(fit.scroll, JSON.stringify(fit)).toBeLessThanOrEqual(fit.client)
  expect(fit.right, JSON.stringify(fit)).toBeLessThanOrEqual(fit.edge)
}

/** An answer as a platform may write it: markdown, with raw HTML and a script link it must not run. */
const hostileAnswer = [
  "**Zoho CRM** and Acme CRM are both good for a dental practice.",
  "",
  "1. *Acme CRM*: made for clinics, see [their page](https://acme-crm.example/dentists).",
  "2. `Zoho CRM`: cheaper.",
  "",
  "| CRM | Price |",
  "|---|---|",
  "| Acme CRM | $20 |",
  "",
  '<script>window.__pwned = "script"</script>',
  "",
  '<img src="x" onerror="window.__pwned = \'img\'">',
  "",
  "Try [this trick](javascript:window.__pwned='link') or [write to us](mailto:sales@acme-crm.example)."
].join("\n")
