import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { buildWeb } from "../../scripts/build-web.ts"
import { startServer, type TestServer } from "../support/TestServer.ts"
import { type Browser, launchBrowser } from "./support/browser.ts"

/**
 * Signing in goes back to the page the user was sent away from (`/sign-in?next=...`), and only to a
 * page of the dashboard: a `next` a browser would read as another site (`/\evil.example/` is
 * `//evil.example/` to it) leads to the Overview instead. Such a `next` left the page blank.
 */
describe("sign-in's next page, in a browser", { timeout: 60_000 }, () => {
  let server: TestServer
  let browser: Browser
  let key: string

  beforeAll(async () => {
    await buildWeb()
    server = await startServer("memory")
    key = (await server.createKey((await server.createOrganization()).id, ["*"])).key
    await server.request("POST", "/api/v1/projects", { key, body: { name: "Next" } })
    browser = await launchBrowser()
  }, 120_000)
  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  /** Signs in on `/sign-in?next=<next>` in a fresh tab session; the address and heading it lands on. */
  const signInWithNext = async (next: string) => {
    const { page } = browser
    // Signed out: the key forgotten by the tab, on a page of the origin where the dashboard does not run.
    await page.goto(`${server.baseUrl}/health`)
    await page.evaluate(() => sessionStorage.clear())
    await page.goto(`${server.baseUrl}/sign-in?next=${encodeURIComponent(next)}`)
    await page.fill("#api-key", key)
    await page.click("button[type=submit]")
    // The sign-in page is a `main#main` too: wait for the page it leads to.
    await page.waitForSelector("main#main:not(.signin) h1", { timeout: 15_000 })
    const heading = await page.locator("main#main h1").first().textContent()
    return { url: page.url(), heading }
  }

  it("treats a next page outside the dashboard as the Overview, and draws it", async () => {
    for (const next of ["/\\evil.example/", "/\\/evil.example", "//evil.example/", "/\t/evil.example", "https://evil.example/", "javascript:alert(1)"]) {
      const landed = await signInWithNext(next)
      expect([next, landed]).toEqual([next, { url: `${server.baseUrl}/`, heading: "Overview" }])
    }
    expect(browser.trespasses.pageErrors).toEqual([])
    expect(browser.trespasses.offHost).toEqual([])
  })

  it("goes to a next page of the dashboard, its query kept", async () => {
    const landed = await signInWithNext("/prompts?period=7d")
    expect(landed).toEqual({ url: `${server.baseUrl}/prompts?period=7d`, heading: "Prompts" })
  })
})
