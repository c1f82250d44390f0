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
    // Under the page's Content-Security-Policy: Scalar probes whether `new Function` may run (a caught
    // attempt, reported as a violation) and does without it; nothing else is refused.
    expect(trespasses.cspViolations.filter((violation) => violation !== "CSP violation: script-src eval")).toEqual([])
  })

  it("sends a Content-Security-Policy that allows its own inline scripts only, and no framing", async () => {
    const reply = await fetch(`${server.baseUrl}/docs`)
    const csp = reply.headers.get("content-security-policy")!
    expect(csp).toContain("default-src 'none'")
    expect(csp).toContain("connect-src 'self'")
    expect(csp).toContain("frame-ancestors 'none'")
    // The scripts by hash: two, the configuration and Scalar's.
    const scriptSrc = csp.split("; ").find((directive) => directive.startsWith("script-src "))!
    expect(scriptSrc.match(/'sha256-[A-Za-z0-9+/]+=*'/g)).toHaveLength(2)
    expect(scriptSrc).not.toMatch(/'unsafe-inline'|'unsafe-eval'|'self'|https?:|\*/)
    expect(reply.headers.get("x-content-type-options")).toBe("nosniff")
    expect(reply.headers.get("x-frame-options")).toBe("DENY")
  })

  it("serves the same page again, made once", async () => {
    const first = await fetch(`${server.baseUrl}/docs`).then((reply) => reply.text())
    const second = await fetch(`${server.baseUrl}/docs`).then((reply) => reply.text())
    expect(second).toBe(first)
    expect(first).toContain("<title>Brand Visibility Monitoring API</title>")
  })
})
