import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type BrowserContext, chromium, type Page } from "playwright-core"
import { browserForTests, type FoundBrowser, MISSING_VARIABLE, missingBrowserMessage, resolveBrowser } from "./find-browser.ts"

/** The browser test/support/globalSetup.ts found (support/find-browser.ts), or why there is none. */
export const testBrowser = browserForTests()

/**
 * Whether a browser test file is skipped: without a browser, except under CI, where it runs and fails
 * saying why (the one sanctioned skip; README, "On a fresh machine").
 */
export const skipBrowserTests = !testBrowser.available && !testBrowser.ci

/** Why the browser tests cannot run here, and the command that runs them. */
export const missingChromium = () => testBrowser.available ? "" : missingBrowserMessage(testBrowser.reason, [])

/** What the page did that it must not: requests off 127.0.0.1, CSP violations, uncaught errors. */
export interface Trespasses {
  readonly offHost: Array<string>
  readonly cspViolations: Array<string>
  readonly pageErrors: Array<string>
  /** The dashboard's own files that did not load (a wrong asset URL). */
  readonly brokenAssets: Array<string>
  /** Every URL the browser asked for (to check that the key never appears in one). */
  readonly urls: Array<string>
}

export interface Browser {
  readonly context: BrowserContext
  readonly page: Page
  readonly trespasses: Trespasses
  readonly close: () => Promise<void>
}

/**
 * Headless Chromium in a fresh profile, with its background traffic off and every host but 127.0.0.1
 * unresolvable; any request to another host is also stopped and recorded, so the tests can fail on it.
 */
export const launchBrowser = async (): Promise<Browser> => {
  // Outside vitest (a script such as measure-overview.ts), nothing looked for a browser yet: look now.
  const found: FoundBrowser | string = testBrowser.available
    ? testBrowser.browser
    : process.env[MISSING_VARIABLE] === undefined ? await resolveBrowser() : testBrowser.reason
  if (typeof found === "string") throw new Error(missingBrowserMessage(found, []))
  const profile = await mkdtemp(join(tmpdir(), "bvm-chromium-"))
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: found.path,
    env: { ...process.env, ...found.env },
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"
    ],
    viewport: { width: 1366, height: 900 },
    deviceScaleFactor: 1,
    locale: "en-US",
    timezoneId: "UTC",
    serviceWorkers: "block"
  })
  const trespasses: Trespasses = { offHost: [], cspViolations: [], pageErrors: [], brokenAssets: [], urls: [] }
  await context.route("**/*", (route) => {
    const url = new URL(route.request().url())
    trespasses.urls.push(url.href)
    if (url.hostname !== "127.0.0.1" && url.protocol !== "data:" && url.protocol !== "blob:") {
      trespasses.offHost.push(url.href)
      return route.abort("blockedbyclient")
    }
    return route.continue()
  })
  await context.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`)
    })
  })
  const page = context.pages()[0] ?? await context.newPage()
  page.on("console", (message) => {
    if (message.text().includes("CSP violation") || message.text().includes("Content Security Policy")) trespasses.cspViolations.push(message.text())
    if (message.text().startsWith("Page error:")) trespasses.pageErrors.push(message.text())
  })
  page.on("pageerror", (error) => trespasses.pageErrors.push(error.message))
  page.on("response", (response) => {
    const path = new URL(response.url()).pathname
    if (!path.startsWith("/api/") && response.status() >= 400) trespasses.brokenAssets.push(`${response.status()} ${path}`)
  })
  return {
    context,
    page,
    trespasses,
    close: async () => {
      await context.close()
      await rm(profile, { recursive: true, force: true })
    }
  }
}
