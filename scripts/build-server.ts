/**
 * `npm run build` (and `npm start`, before the server): bundles the service's processes (the server,
 * the worker, the command-line tool) and the threads they start to analyse answers (`analysis-thread`,
 * src/Responses/Analyzer.ts) from src/ into dist/server/ (git-ignored), so that they run as plain
 * JavaScript: no TypeScript compiler in the process, which starts faster and keeps less memory than
 * running the sources through tsx.
 *
 * The bundles sit two folders below the project's root, as src/Web/Dashboard.ts does, so the paths it
 * resolves from its own location (web/dist/) are the same in both. It takes about a second.
 *
 * The build is made in a scratch folder, then moved in file by file (each move is atomic, chunks first,
 * the entry points last), so a process starting meanwhile (a second build at the same time, the tests)
 * never reads a half-written file. Chunks are named by their content and old ones are left in place:
 * a running process may still import one it was built with.
 */
import * as esbuild from "esbuild"
import { copyFile, mkdir, mkdtemp, readdir, rename, rm } from "node:fs/promises"
import { createRequire } from "node:module"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("../", import.meta.url))
const outdir = join(root, "dist", "server")
const entryPoints = ["main", "worker", "cli", "analysis-thread"]

export const buildServer = async () => {
  const started = performance.now()
  await mkdir(outdir, { recursive: true })
  const scratch = await mkdtemp(join(root, "dist", ".server-"))
  try {
    await bundleInto(scratch)
    await copyFile(scalarStandalone(), join(scratch, "scalar-api-reference.js"))
    const built = await readdir(scratch)
    const isEntry = (name: string) => entryPoints.some((entry) => name === `${entry}.js` || name === `${entry}.js.map`)
    for (const name of [...built.filter((name) => !isEntry(name)), ...built.filter(isEntry)]) {
      await rename(join(scratch, name), join(outdir, name))
    }
  } finally {
    await rm(scratch, { recursive: true, force: true })
  }
  return { milliseconds: Math.round(performance.now() - started) }
}

/**
 * The API reference's script (src/Http/Docs.ts): Scalar's browser bundle from its build-only package,
 * served from dist/server/ so that the service needs no development dependency to show it.
 */
const scalarStandalone = () => createRequire(import.meta.url).resolve("@scalar/api-reference/browser/standalone.js")

const bundleInto = (directory: string) =>
  esbuild.build({
    absWorkingDir: root,
    entryPoints: entryPoints.map((entry) => `src/${entry}.ts`),
    outdir: directory,
    bundle: true,
    platform: "node",
    target: "node20",
    format: "esm",
    // What is imported on demand (the OpenTelemetry SDK, the Redis client) goes in chunks of its own,
    // loaded only when a setting asks for it.
    splitting: true,
    // Dependencies are bundled too, so that only the parts of them the service uses are loaded (Effect's
    // packages are large; whole, they cost the process some 100 MB). PGlite loads its WebAssembly and
    // data files from beside its own module, and sentiment its lexicons, so they stay in node_modules.
    external: ["@electric-sql/pglite", "@electric-sql/pglite-socket", "esbuild", "sentiment"],
    // Some dependencies are CommonJS that call require(): the bundle is ESM, so it gets one.
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
    // Beside the bundles, not loaded: `node --enable-source-maps` reads them (at some 100 MB of memory).
    sourcemap: "linked",
    logLevel: "warning"
  })

if (import.meta.url === `file://${process.argv[1]}`) {
  const { milliseconds } = await buildServer()
  console.log(`built dist/server in ${milliseconds} ms`)
}
