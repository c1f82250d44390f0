import { type ChildProcess, spawn } from "node:child_process"
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { freePort, runCommand as run, shellEnvironment, succeeded } from "../support/Processes.ts"

/**
 * The production path of docs/operations.md ("Running it"): `npm run build`, then the project's
 * package files, `dist/server` and `web/dist` in a folder of their own, `npm ci --omit=dev` there (the
 * runtime dependencies only: no bundler, no Preact, no Scalar package), and `node dist/server/main.js`
 * on the embedded database. It serves `/health`, the dashboard at `/`, the API reference and an API
 * call with a key the built CLI made beside it.
 */

const root = fileURLToPath(new URL("../..", import.meta.url))

describe("the production path: npm run build, npm ci --omit=dev, node dist/server/main.js", { timeout: 120_000 }, () => {
  const folder = mkdtempSync(join(tmpdir(), "bvm-production-"))
  const dataDir = join(folder, "data")
  let server: ChildProcess
  let output = ""
  let baseUrl: string
  const env = () => ({ DATA_DIR: dataDir, LOG_LEVEL: "info" })

  beforeAll(async () => {
    succeeded("npm run build", await run("npm", ["run", "build"], root))
    for (const file of ["package.json", "package-lock.json"]) cpSync(join(root, file), join(folder, file))
    // The source maps are not needed to run (operations.md, "Running it").
    cpSync(join(root, "dist", "server"), join(folder, "dist", "server"), { recursive: true, filter: (path) => !path.endsWith(".map") })
    cpSync(join(root, "web", "dist"), join(folder, "web", "dist"), { recursive: true })
    succeeded(
      "npm ci --omit=dev",
      await run("npm", ["ci", "--omit=dev", "--no-audit", "--no-fund", "--prefer-offline"], folder)
    )
    mkdirSync(dataDir, { mode: 0o700 })
    const port = await freePort()
    baseUrl = `http://127.0.0.1:${port}`
    server = spawn(process.execPath, ["dist/server/main.js"], {
      cwd: folder,
      env: { ...shellEnvironment(), ...env(), PORT: String(port), WORKER: "off" },
      stdio: ["ignore", "pipe", "pipe"]
    })
    server.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()))
    server.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()))
    // PGlite's first start (the migrations included) is slow on a loaded machine.
    const deadline = Date.now() + 240_000
    while (!(await fetch(`${baseUrl}/ready`, { signal: AbortSignal.timeout(2_000) }).then((r) => r.ok, () => false))) {
      if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}\n${output}`)
      if (Date.now() > deadline) throw new Error(`the server was not ready within 240 s\n${output}`)
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
  }, 600_000)

  afterAll(() => {
    server?.kill("SIGKILL")
    rmSync(folder, { recursive: true, force: true })
  }, 300_000)

  it("installs the runtime dependencies only", () => {
    expect(existsSync(join(folder, "node_modules", "effect"))).toBe(true)
    expect(existsSync(join(folder, "node_modules", "@electric-sql", "pglite"))).toBe(true)
    for (const development of ["esbuild", "tsx", "preact", "uplot", "vitest", "@scalar/api-reference", "@redocly/openapi-core", "typescript"]) {
      expect(existsSync(join(folder, "node_modules", development)), development).toBe(false)
    }
  })

  it("serves /health, the dashboard and the API reference", async () => {
    const health = await fetch(`${baseUrl}/health`)
    expect(health.status).toBe(200)
    expect(await health.json()).toEqual({ status: "ok" })
    const dashboard = await fetch(`${baseUrl}/`)
    expect(dashboard.status).toBe(200)
    expect(dashboard.headers.get("content-type")).toContain("text/html")
    expect(await dashboard.text()).toContain(`<div id="app">`)
    const docs = await fetch(`${baseUrl}/docs`)
    expect(docs.status).toBe(200)
    expect((await docs.text()).length).toBeGreaterThan(1_000_000)
  })

  it("answers an API call with a key the built CLI made beside the running server", async () => {
    const org = JSON.parse(succeeded("cli orgs create", await run(process.execPath, ["dist/server/cli.js", "orgs", "create", "--json", "Acme"], folder, env())).stdout)
    const made = await run(
      process.execPath,
      ["dist/server/cli.js", "keys", "create", "--org", String(org.id), "--name", "production test", "--abilities", "*", "--json"],
      folder,
      env()
    )
    const { key } = JSON.parse(succeeded("cli keys create", made).stdout)
    const me = await fetch(`${baseUrl}/api/v1/me`, { headers: { authorization: `Bearer ${key}` } })
    expect(me.status).toBe(200)
    expect((await me.json()).data.organization).toEqual({ id: org.id, name: "Acme" })
    expect(await fetch(`${baseUrl}/api/v1/me`).then((reply) => reply.status)).toBe(401)
  })

  it("stops on SIGTERM with exit 0", async () => {
    const exited = new Promise<number | null>((resolve) => server.once("exit", resolve))
    server.kill("SIGTERM")
    expect(await exited, output).toBe(0)
  })
})
