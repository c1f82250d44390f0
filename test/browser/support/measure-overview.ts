/**
 * Measures the dashboard's budget on a real project, as docs/dashboard.md reports it: the first
 * page's JavaScript (gzipped, as transferred) and the time from navigation start to the Overview
 * drawn (its data loaded and rendered: the `overview-drawn` mark), over several fresh page loads.
 *
 *   DATA_DIR=/tmp/demo npm run demo        # 90 days, 3,600 answers; prints a key
 *   node --import tsx test/browser/support/measure-overview.ts /tmp/demo <key> [loads]
 *
 * Without a data directory argument (`-`), it measures on the browser tests' seeded project instead.
 */
import { buildWeb } from "../../../scripts/build-web.ts"
import { launchBrowser } from "./browser.ts"
import { seedProject } from "./seed.ts"
import { startRealServer } from "./server.ts"

const [dataDir, givenKey, loadsArg] = process.argv.slice(2)
const loads = Number(loadsArg ?? 10)
await buildWeb()
const server = await startRealServer(dataDir === undefined || dataDir === "-" ? {} : { dataDir })
let key = givenKey
if (key === undefined) {
  const organization = JSON.parse(await server.cli("orgs", "create", "Measure", "--json")) as { id: number }
  key = (JSON.parse(await server.cli("keys", "create", "--org", String(organization.id), "--name", "measure", "--abilities", "*", "--json")) as { key: string }).key
  await seedProject(server.baseUrl, key, 60, server.importAnswers)
}
const browser = await launchBrowser()
try {
  const page = browser.page
  await page.goto(`${server.baseUrl}/sign-in`)
  await page.fill("#api-key", key)
  await page.click("button[type=submit]")
  await page.waitForSelector('#overview[data-ready="true"]')
  const times: Array<number> = []
  let scriptBytes = 0
  for (let i = 0; i < loads; i++) {
    await page.goto(`${server.baseUrl}/`)
    await page.waitForSelector('#overview[data-ready="true"]')
    const measured = await page.evaluate(() => ({
      drawn: performance.getEntriesByName("overview-drawn")[0]?.startTime ?? Number.NaN,
      script: performance.getEntriesByType("resource")
        .filter((entry) => (entry as PerformanceResourceTiming).initiatorType === "script")
        .reduce((sum, entry) => sum + (entry as PerformanceResourceTiming).encodedBodySize, 0)
    }))
    times.push(measured.drawn)
    // The browser's cache serves the script on later loads; the first load's size is the transferred one.
    if (i === 0) scriptBytes = measured.script
  }
  const sorted = [...times].sort((a, b) => a - b)
  const median = sorted[Math.floor(sorted.length / 2)]!
  console.log(`first page's JavaScript: ${(scriptBytes / 1024).toFixed(1)} KB gzipped`)
  console.log(`Overview drawn after ${loads} loads: median ${Math.round(median)} ms, best ${Math.round(sorted[0]!)} ms, worst ${Math.round(sorted[sorted.length - 1]!)} ms`)
} finally {
  await browser.close()
  await server.stop()
}
