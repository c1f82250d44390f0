import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startServer, type TestServer } from "../support/TestServer.ts"
import { type Browser, launchBrowser, skipBrowserTests } from "./support/browser.ts"

/**
 * The API reference at /docs as a reader opens it, in a real headless Chromium: Scalar's script, loaded
 * by the server on the first request (src/Http/Docs.ts), draws the endpoints of the OpenAPI document
 * without a request leaving the machine.
 */
describe.skipIf(skipBrowserTests)("the API reference in a browser", { timeout: 60_000 }, () => {
  let server: TestServer
  let browser: Browser
  beforeAll(async () => {
    server = await startServer("memory")
    browser = await launchBrowser()
  })
  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  it("draws the API's title, description and groups of operations, loading nothing from the internet", async () => {
    const { page, trespasses } = browser
    await page.goto(`${server.baseUrl}/docs`)
    // The first group opens by itself; the others are listed closed.
    await page.getByText("Identity check").first().waitFor({ timeout: 30_000 })
    await page.getByRole("heading", { name: "Brand Visibility Monitoring API" }).waitFor({ timeout: 30_000 })
    await page.getByText("Laravel-style pagination envelope").first().waitFor({ timeout: 30_000 })
    const sidebar = await page.evaluate(() => document.body.innerText)
    for (const group of ["Projects", "Prompts", "Tags", "Responses", "Analytics", "API keys"]) expect(sidebar).toContain(group)
    await page.screenshot({ path: join(mkdtempSync(join(tmpdir(), "bvm-docs-")), "docs.png") })
    expect(trespasses.offHost).toEqual([])
    expect(trespasses.pageErrors).toEqual([])
  })

  it("serves the same page again, made once", async () => {
    const first = await fetch(`${server.baseUrl}/docs`).then((reply) => reply.text())
    const second = await fetch(`${server.baseUrl}/docs`).then((reply) => reply.text())
    expect(second).toBe(first)
    expect(first).toContain("<title>Brand Visibility Monitoring API</title>")
  })
})
