import { existsSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { chromium } from "playwright-core"
import { describe, expect, it } from "vitest"
import {
  browserForTests,
  FOUND_VARIABLE,
  isCi,
  locateBrowser,
  type Machine,
  MISSING_VARIABLE,
  missingBrowserMessage,
  prepareNpmChromium,
  runBrowserTestsCommand
} from "../browser/support/find-browser.ts"

/**
 * How the browser tests find their browser (test/browser/support/find-browser.ts), on made-up machines:
 * CHROMIUM_PATH, the system's Chromium or Chrome, Playwright's cache, the npm package; and what a run is
 * told without one. The npm package's Chromium is also unpacked and driven for real where it can run.
 */

/** A machine holding exactly these executables and files. */
const machine = (options: {
  readonly env?: Record<string, string>
  readonly executables?: ReadonlyArray<string>
  readonly files?: ReadonlyArray<string>
  readonly platform?: NodeJS.Platform
  readonly arch?: string
}): Machine => {
  const executables = new Set(options.executables ?? [])
  const files = new Set([...(options.files ?? []), ...executables])
  return {
    env: { PATH: "/usr/local/bin:/usr/bin:/bin", ...options.env },
    platform: options.platform ?? "linux",
    arch: options.arch ?? "x64",
    home: "/home/dev",
    root: "/work/project",
    isExecutable: (path) => executables.has(path),
    exists: (path) => files.has(path),
    list: (dir) => [...new Set([...files].filter((file) => file.startsWith(`${dir}/`)).map((file) => file.slice(dir.length + 1).split("/")[0]!))]
  }
}

const found = (path: string, source: string) => ({ kind: "found", browser: { path, source, env: {} } })
const npmArchive = "/work/project/node_modules/@sparticuz/chromium/bin/chromium.br"

describe("locateBrowser", () => {
  it("takes CHROMIUM_PATH first, and only it: a path that is not there is said, not replaced", () => {
    expect(locateBrowser(machine({ env: { CHROMIUM_PATH: "/opt/my/chrome" }, executables: ["/opt/my/chrome", "/usr/bin/chromium"] })))
      .toEqual(found("/opt/my/chrome", "CHROMIUM_PATH"))
    const missing = locateBrowser(machine({ env: { CHROMIUM_PATH: "/nowhere" }, executables: ["/usr/bin/chromium"], files: [npmArchive] }))
    expect(missing).toEqual({ kind: "missing", reason: "CHROMIUM_PATH is /nowhere, which is not an executable file" })
    // An empty CHROMIUM_PATH is no setting.
    expect(locateBrowser(machine({ env: { CHROMIUM_PATH: "" }, executables: ["/usr/bin/chromium"] }))).toEqual(found("/usr/bin/chromium", "system"))
  })

  it("finds the system's Chromium or Chrome on the PATH, by name in order, then where the packages put them", () => {
    expect(locateBrowser(machine({ executables: ["/usr/bin/google-chrome", "/usr/local/bin/chromium-browser"] })))
      .toEqual(found("/usr/local/bin/chromium-browser", "system"))
    expect(locateBrowser(machine({ env: { PATH: "/home/dev/bin" }, executables: ["/opt/google/chrome/chrome"] })))
      .toEqual(found("/opt/google/chrome/chrome", "system"))
    // A file that is not executable is no browser.
    expect(locateBrowser(machine({ files: ["/usr/bin/chromium"] })).kind).toBe("missing")
    expect(locateBrowser(machine({ platform: "darwin", env: { PATH: "/usr/bin" }, executables: ["/Applications/Google Chrome.app/Contents/MacOS/Google Chrome"] })))
      .toEqual(found("/Applications/Google Chrome.app/Contents/MacOS/Google Chrome", "system"))
  })

  it("then Playwright's browsers: its cache or PLAYWRIGHT_BROWSERS_PATH, newest revision first, a headless shell too", () => {
    const cache = "/home/dev/.cache/ms-playwright"
    expect(locateBrowser(machine({
      executables: [`${cache}/chromium-1140/chrome-linux/chrome`, `${cache}/chromium-1200/chrome-linux64/chrome`, `${cache}/firefox-1500/firefox/firefox`]
    }))).toEqual(found(`${cache}/chromium-1200/chrome-linux64/chrome`, "playwright"))
    expect(locateBrowser(machine({ executables: [`${cache}/chromium_headless_shell-1200/chrome-linux/headless_shell`] })))
      .toEqual(found(`${cache}/chromium_headless_shell-1200/chrome-linux/headless_shell`, "playwright"))
    expect(locateBrowser(machine({ env: { PLAYWRIGHT_BROWSERS_PATH: "/srv/browsers" }, executables: ["/srv/browsers/chromium-1200/chrome-linux/chrome", `${cache}/chromium-1300/chrome-linux/chrome`] })))
      .toEqual(found("/srv/browsers/chromium-1200/chrome-linux/chrome", "playwright"))
    expect(locateBrowser(machine({ platform: "darwin", executables: ["/home/dev/Library/Caches/ms-playwright/chromium-1200/chrome-mac/Chromium.app/Contents/MacOS/Chromium"] })).kind)
      .toBe("found")
  })

  it("then the Chromium of the npm package, on Linux x64 only; else none, saying where it looked", () => {
    expect(locateBrowser(machine({ files: [npmArchive] }))).toEqual({ kind: "npm", packageDir: "/work/project/node_modules/@sparticuz/chromium" })
    expect(locateBrowser(machine({ files: [npmArchive], arch: "arm64" })).kind).toBe("missing")
    expect(locateBrowser(machine({ files: [npmArchive], platform: "darwin" })).kind).toBe("missing")
    const none = locateBrowser(machine({}))
    expect(none.kind).toBe("missing")
    if (none.kind === "missing") expect(none.reason).toMatch(/^no Chromium or Chrome was found: not on the PATH, .*@sparticuz\/chromium is not installed$/)
  })
})

describe("what the browser tests are told", () => {
  it("the browser globalSetup found, or why there is none, and whether that fails the run (CI) or skips it", () => {
    const browser = { path: "/usr/bin/chromium", source: "system", env: {} }
    expect(browserForTests({ [FOUND_VARIABLE]: JSON.stringify(browser) })).toEqual({ available: true, browser })
    expect(browserForTests({ [MISSING_VARIABLE]: "none here" })).toEqual({ available: false, reason: "none here", ci: false })
    expect(browserForTests({ [MISSING_VARIABLE]: "none here", CI: "true" })).toEqual({ available: false, reason: "none here", ci: true })
  })

  it("CI is on for CI=true or 1, off when unset, empty, 0 or false", () => {
    expect([{ CI: "true" }, { CI: "1" }, { CI: "TRUE" }].map(isCi)).toEqual([true, true, true])
    expect([{}, { CI: "" }, { CI: "0" }, { CI: "false" }].map(isCi)).toEqual([false, false, false, false])
  })

  it("says which tests did not run, why, and the one command that runs them", () => {
    expect(runBrowserTestsCommand({}, "linux")).toBe("sudo apt-get install -y chromium && npx vitest run test/browser")
    expect(runBrowserTestsCommand({}, "darwin")).toBe("npx playwright-core install chromium && npx vitest run test/browser")
    expect(runBrowserTestsCommand({ CHROMIUM_PATH: "/nowhere" }, "linux")).toBe("CHROMIUM_PATH=/path/to/chromium npx vitest run test/browser")
    const message = missingBrowserMessage("no Chromium or Chrome was found", ["test/browser/docs.test.ts", "test/browser/dashboard.test.ts"])
    expect(message).toContain("The browser tests did not run: no Chromium or Chrome was found.")
    expect(message).toContain("Not run: test/browser/docs.test.ts, test/browser/dashboard.test.ts.")
    expect(message).toMatch(/Run them with: .*npx vitest run test\/browser/)
  })
})

const root = fileURLToPath(new URL("../../", import.meta.url))
const packageDir = join(root, "node_modules", "@sparticuz", "chromium")
const npmChromiumHere = process.platform === "linux" && process.arch === "x64" && existsSync(join(packageDir, "bin", "chromium.br"))

// The project's own dependencies bring a Chromium that runs on Linux x64 without anything installed.
describe.runIf(npmChromiumHere)("the npm package's Chromium on this machine", () => {
  it("unpacks once into node_modules/.cache, starts, and is driven by Playwright", async () => {
    const prepared = await prepareNpmChromium(packageDir, root)
    if (typeof prepared === "string") throw new Error(prepared)
    expect(prepared.source).toBe("npm")
    expect(prepared.path.startsWith(join(root, "node_modules", ".cache", "bvm-chromium"))).toBe(true)
    expect(prepared.env.LD_LIBRARY_PATH).toContain(join(prepared.path, "..", "al2023", "lib"))
    // Unpacked already: the second call reuses it.
    expect(await prepareNpmChromium(packageDir, root)).toEqual(prepared)
    const browser = await chromium.launch({ executablePath: prepared.path, env: { ...process.env, ...prepared.env }, args: ["--no-sandbox", "--disable-gpu"] })
    try {
      const page = await browser.newPage()
      await page.setContent("<main><h1>Brand visibility</h1></main>")
      expect(await page.textContent("h1")).toBe("Brand visibility")
    } finally {
      await browser.close()
    }
  }, 120_000)
})
