import { existsSync } from "node:fs"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type BrowserContext, chromium, type Page } from "playwright-core"

/** Debian's chromium (apt-get install chromium), or CHROMIUM_PATH. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium"

export const missingChromium = () =>
  `Chromium was not found at ${chromiumPath}, and the browser tests need it. Install it with ` +
  "`sudo apt-get install -y chromium` (Debian and Ubuntu; .ci/run does it when it is missing), " +
  "or set CHROMIUM_PATH to a Chromium or Chrome binary."

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
  if (!existsSync(chromiumPath)) throw new Error(missingChromium())
  const profile = await mkdtemp(join(tmpdir(), "bvm-chromium-"))
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath,
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
