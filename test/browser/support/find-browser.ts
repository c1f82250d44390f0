import { spawnSync } from "node:child_process"
import { accessSync, constants, createReadStream, createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs"
import { homedir } from "node:os"
import { delimiter, join } from "node:path"
import { pipeline } from "node:stream/promises"
import { fileURLToPath } from "node:url"
import { createBrotliDecompress } from "node:zlib"

/**
 * Which Chromium the browser tests (test/browser/) drive, looked for in this order:
 *
 * 1. `CHROMIUM_PATH`, when set: that binary and no other (a path that is not there is said, not replaced);
 * 2. the system's Chromium or Chrome: on the PATH, or where their packages put them;
 * 3. Playwright's browsers (`PLAYWRIGHT_BROWSERS_PATH`, else its cache: ~/.cache/ms-playwright);
 * 4. the Chromium shipped inside the npm package @sparticuz/chromium (a devDependency, so `npm ci`
 *    installs it): Linux x64 only, unpacked once into node_modules/.cache/ with the few libraries it
 *    needs, and used if it starts there.
 *
 * Where none is found the browser tests are skipped, saying so and how to run them, except under CI
 * (`CI=true`), where a missing browser fails the run (README, "On a fresh machine").
 */

export type BrowserSource = "CHROMIUM_PATH" | "system" | "playwright" | "npm"

export interface FoundBrowser {
  readonly path: string
  readonly source: BrowserSource
  /** Environment the browser needs besides the tests' own (the npm Chromium's libraries and fonts). */
  readonly env: Readonly<Record<string, string>>
}

/** What `locateBrowser` may look at: the real machine, or a fake one in the unit test. */
export interface Machine {
  readonly env: Readonly<Record<string, string | undefined>>
  readonly platform: NodeJS.Platform
  readonly arch: string
  readonly home: string
  /** The project's folder (for node_modules). */
  readonly root: string
  readonly isExecutable: (path: string) => boolean
  readonly exists: (path: string) => boolean
  /** The entries of a folder; none when it is not there. */
  readonly list: (path: string) => ReadonlyArray<string>
}

export type Location =
  | { readonly kind: "found"; readonly browser: FoundBrowser }
  /** The npm package's archives: `prepareNpmChromium` unpacks them. */
  | { readonly kind: "npm"; readonly packageDir: string }
  | { readonly kind: "missing"; readonly reason: string }

const systemNames = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome"]

const systemPaths: Partial<Record<NodeJS.Platform, ReadonlyArray<string>>> = {
  linux: ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome", "/usr/bin/google-chrome-stable", "/opt/google/chrome/chrome", "/snap/bin/chromium"],
  darwin: ["/Applications/Google Chrome.app/Contents/MacOS/Google Chrome", "/Applications/Chromium.app/Contents/MacOS/Chromium"],
  win32: ["C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe", "C:\\Program Files (x86)\\Google\\Chrome\\Application\\chrome.exe"]
}

/** Where Playwright puts its browsers by default, per system. */
const playwrightCache = (machine: Machine): string | undefined => {
  const given = machine.env.PLAYWRIGHT_BROWSERS_PATH
  if (given !== undefined && given !== "" && given !== "0") return given
  if (machine.platform === "darwin") return join(machine.home, "Library", "Caches", "ms-playwright")
  if (machine.platform === "win32") return machine.env.LOCALAPPDATA === undefined ? undefined : join(machine.env.LOCALAPPDATA, "ms-playwright")
  return join(machine.env.XDG_CACHE_HOME || join(machine.home, ".cache"), "ms-playwright")
}

/** The binaries inside one of Playwright's browser folders (`chromium-1200`, `chromium_headless_shell-1200`), by layout. */
const playwrightBinaries = [
  ["chrome-linux", "chrome"],
  ["chrome-linux64", "chrome"],
  ["chrome-linux", "headless_shell"],
  ["chrome-headless-shell-linux64", "chrome-headless-shell"],
  ["chrome-mac", "Chromium.app", "Contents", "MacOS", "Chromium"],
  ["chrome-mac-arm64", "Google Chrome for Testing.app", "Contents", "MacOS", "Google Chrome for Testing"],
  ["chrome-mac-x64", "Google Chrome for Testing.app", "Contents", "MacOS", "Google Chrome for Testing"],
  ["chrome-mac", "headless_shell"],
  ["chrome-win", "chrome.exe"],
  ["chrome-win64", "chrome.exe"]
]

const revision = (folder: string) => Number(folder.slice(folder.lastIndexOf("-") + 1)) || 0

/** Where the browser is, or why there is none: looks only, never unpacks nor starts anything. */
export const locateBrowser = (machine: Machine): Location => {
  const found = (path: string, source: BrowserSource): Location => ({ kind: "found", browser: { path, source, env: {} } })

  const given = machine.env.CHROMIUM_PATH
  if (given !== undefined && given !== "") {
    return machine.isExecutable(given)
      ? found(given, "CHROMIUM_PATH")
      : { kind: "missing", reason: `CHROMIUM_PATH is ${given}, which is not an executable file` }
  }

  const onPath = (machine.env.PATH ?? "").split(delimiter).filter((dir) => dir !== "")
  for (const name of systemNames) {
    for (const dir of onPath) {
      const path = join(dir, machine.platform === "win32" ? `${name}.exe` : name)
      if (machine.isExecutable(path)) return found(path, "system")
    }
  }
  for (const path of systemPaths[machine.platform] ?? []) if (machine.isExecutable(path)) return found(path, "system")

  const cache = playwrightCache(machine)
  if (cache !== undefined) {
    // The newest revision first; a full Chromium before a headless shell of the same revision.
    const folders = machine.list(cache)
      .filter((folder) => /^chromium(_headless_shell)?-\d+$/.test(folder))
      .sort((a, b) => revision(b) - revision(a) || a.length - b.length)
    for (const folder of folders) {
      for (const parts of playwrightBinaries) {
        const path = join(cache, folder, ...parts)
        if (machine.isExecutable(path)) return found(path, "playwright")
      }
    }
  }

  const packageDir = join(machine.root, "node_modules", "@sparticuz", "chromium")
  if (machine.platform === "linux" && machine.arch === "x64" && machine.exists(join(packageDir, "bin", "chromium.br"))) {
    return { kind: "npm", packageDir }
  }

  return {
    kind: "missing",
    reason: "no Chromium or Chrome was found: not on the PATH, not where Debian, Ubuntu, Chrome or Playwright put it" +
      (machine.platform === "linux" && machine.arch === "x64" ? ", and the npm package @sparticuz/chromium is not installed" : "")
  }
}

/** This machine, as `locateBrowser` sees it. */
export const thisMachine = (): Machine => ({
  env: process.env,
  platform: process.platform,
  arch: process.arch,
  home: homedir(),
  root: fileURLToPath(new URL("../../../", import.meta.url)),
  isExecutable: (path) => {
    try {
      if (!statSync(path).isFile()) return false
      accessSync(path, constants.X_OK)
      return true
    } catch {
      return false
    }
  },
  exists: (path) => existsSync(path),
  list: (path) => {
    try {
      return readdirSync(path)
    } catch {
      return []
    }
  }
})

// --- The npm package's Chromium ---------------------------------------------------------------------

/** A fontconfig file for a machine without one: the package's own fonts. */
const fontsConf = (dir: string) =>
  `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n  <dir>${join(dir, "fonts-package", "fonts")}</dir>\n` +
  `  <cachedir>${join(dir, "fonts-cache")}</cachedir>\n</fontconfig>\n`

/** A brotli archive unpacked: a tar into the folder `target` (with the system's tar), anything else to the file `target`. */
const unpack = async (archive: string, target: string, tar: boolean) => {
  const output = tar ? `${target}.tar` : target
  await pipeline(createReadStream(archive), createBrotliDecompress(), createWriteStream(output, { mode: 0o755 }))
  if (!tar) return
  mkdirSync(target, { recursive: true })
  const extracted = spawnSync("tar", ["-x", "-f", output, "-C", target], { encoding: "utf8" })
  rmSync(output, { force: true })
  if (extracted.status !== 0) throw new Error(`tar could not unpack ${archive}: ${(extracted.stderr || String(extracted.error ?? "")).trim()}`)
}

/**
 * The npm package's Chromium, unpacked once per version into node_modules/.cache/bvm-chromium/ (a few
 * seconds, then reused), with the libraries it needs beside it; then started once (`--version`) to see
 * that it runs on this machine. The reason when it does not.
 */
export const prepareNpmChromium = async (packageDir: string, root: string): Promise<FoundBrowser | string> => {
  const version = (JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as { version: string }).version
  const dir = join(root, "node_modules", ".cache", "bvm-chromium", version)
  const binary = join(dir, "chromium")
  try {
    if (!existsSync(join(dir, "ready"))) {
      rmSync(dir, { recursive: true, force: true })
      mkdirSync(dir, { recursive: true })
      await unpack(join(packageDir, "bin", "chromium.br"), `${binary}.partial`, false)
      await unpack(join(packageDir, "bin", "al2023.tar.br"), join(dir, "al2023"), true)
      await unpack(join(packageDir, "bin", "fonts.tar.br"), join(dir, "fonts-package"), true)
      writeFileSync(join(dir, "fonts.conf"), fontsConf(dir))
      renameSync(`${binary}.partial`, binary)
      writeFileSync(join(dir, "ready"), version)
    }
  } catch (error) {
    return `the Chromium of the npm package @sparticuz/chromium could not be unpacked: ${String(error)}`
  }
  const env: Record<string, string> = {
    LD_LIBRARY_PATH: [join(dir, "al2023", "lib"), process.env.LD_LIBRARY_PATH].filter((part) => part !== undefined && part !== "").join(":"),
    // The system's fonts where it has fontconfig; else the package's own.
    ...(existsSync("/etc/fonts/fonts.conf") ? {} : { FONTCONFIG_FILE: join(dir, "fonts.conf") })
  }
  const started = spawnSync(binary, ["--version"], { env: { ...process.env, ...env }, encoding: "utf8", timeout: 30_000 })
  if (started.status !== 0) {
    return `the Chromium of the npm package @sparticuz/chromium does not start on this machine: ${(started.stderr || String(started.error ?? "")).trim().slice(0, 300)}`
  }
  return { path: binary, source: "npm", env }
}

// --- What the tests are told ------------------------------------------------------------------------

/** Set by test/support/globalSetup.ts for the test files: the browser found (JSON), or why there is none. */
export const FOUND_VARIABLE = "BVM_TEST_CHROMIUM"
export const MISSING_VARIABLE = "BVM_TEST_CHROMIUM_MISSING"

/**
 * The one command that runs the browser tests here: with the browser CHROMIUM_PATH should name, or after
 * installing one (Debian's package on Linux, Playwright's build elsewhere, which the search finds).
 */
export const runBrowserTestsCommand = (env: Readonly<Record<string, string | undefined>> = process.env, platform: NodeJS.Platform = process.platform) =>
  env.CHROMIUM_PATH !== undefined && env.CHROMIUM_PATH !== ""
    ? "CHROMIUM_PATH=/path/to/chromium npx vitest run test/browser"
    : platform === "linux"
    ? "sudo apt-get install -y chromium && npx vitest run test/browser"
    : "npx playwright-core install chromium && npx vitest run test/browser"

/** Finds (and, for the npm package, prepares) the browser; the reason when there is none. */
export const resolveBrowser = async (machine: Machine = thisMachine()): Promise<FoundBrowser | string> => {
  const location = locateBrowser(machine)
  if (location.kind === "found") return location.browser
  if (location.kind === "missing") return location.reason
  return prepareNpmChromium(location.packageDir, machine.root)
}

/** Under CI a missing browser fails the run; elsewhere the browser tests are skipped, saying so. */
export const isCi = (env: Readonly<Record<string, string | undefined>> = process.env) =>
  env.CI !== undefined && env.CI !== "" && env.CI !== "0" && env.CI.toLowerCase() !== "false"

/** The message of a run without a browser: what did not run, why, and the command that runs it. */
export const missingBrowserMessage = (reason: string, files: ReadonlyArray<string>) =>
  `The browser tests did not run: ${reason}.\n` +
  (files.length === 0 ? "" : `Not run: ${files.join(", ")}.\n`) +
  `Run them with: ${runBrowserTestsCommand()}\n` +
  "(CHROMIUM_PATH names any Chromium or Chrome binary; under CI=true a missing browser fails the run)."

export type BrowserForTests =
  | { readonly available: true; readonly browser: FoundBrowser }
  | { readonly available: false; readonly reason: string; readonly ci: boolean }

/** In a test file: the browser globalSetup found, or why there is none (then skip, or fail under CI). */
export const browserForTests = (env: Readonly<Record<string, string | undefined>> = process.env): BrowserForTests => {
  const found = env[FOUND_VARIABLE]
  if (found !== undefined && found !== "") return { available: true, browser: JSON.parse(found) as FoundBrowser }
  return { available: false, reason: env[MISSING_VARIABLE] ?? "no browser was looked for (test/support/globalSetup.ts did not run)", ci: isCi(env) }
}
