import { type ChildProcess, execFile, spawn } from "node:child_process"
import { mkdtemp, rm, writeFile } from "node:fs/promises"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { createDatabase } from "../../support/TestServer.ts"

const root = fileURLToPath(new URL("../../../", import.meta.url))

/** The service as `npm start` runs it (its build, dist/server/main.js), in a process of its own. */
export interface RealServer {
  readonly baseUrl: string
  readonly database: "embedded" | "postgres"
  /** The command-line tool on the same database (as README's "An organization and a key"). */
  readonly cli: (...args: ReadonlyArray<string>) => Promise<string>
  /** `cli import` of these NDJSON lines into a project. */
  readonly importAnswers: (ndjson: string, projectId: number) => Promise<void>
  /** The server's log lines so far. */
  readonly log: () => string
  readonly stop: () => Promise<void>
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer()
    probe.once("error", reject)
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address()
      probe.close(() => (typeof address === "object" && address !== null ? resolve(address.port) : reject(new Error("no port"))))
    })
  })

/**
 * Starts the built server on a free port with the collector off (the tests' data must hold still), on the
 * embedded database in a fresh DATA_DIR (or the one given), or, when DATABASE_URL is set (CI's second
 * pass), on a fresh database of that PostgreSQL server. The dashboard must have been built
 * (scripts/build-web.ts).
 */
export const startRealServer = async (
  options: {
    readonly dataDir?: string
    /** Settings of the server's own (WORKER=on runs the collector); those `undefined` are removed from the environment. */
    readonly env?: Readonly<Record<string, string | undefined>>
  } = {}
): Promise<RealServer> => {
  // A given data directory (an existing demo) is the caller's; a fresh one is removed at the end.
  const dataDir = options.dataDir ?? await mkdtemp(join(tmpdir(), "bvm-browser-"))
  const postgres = process.env.DATABASE_URL === undefined || process.env.DATABASE_URL === ""
    ? undefined
    : await createDatabase(process.env.DATABASE_URL)
  const port = await freePort()
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    WORKER: "off",
    LOG_LEVEL: "info",
    RATE_LIMIT_PER_MINUTE: "1000000",
    ...options.env
  }
  delete env.REDIS_URL
  for (const [name, value] of Object.entries(options.env ?? {})) if (value === undefined) delete env[name]
  if (postgres === undefined) delete env.DATABASE_URL
  else env.DATABASE_URL = postgres.url

  const child: ChildProcess = spawn(process.execPath, ["dist/server/main.js"], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] })
  let output = ""
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()))
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)))

  const baseUrl = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 90_000
  for (;;) {
    const ready = await fetch(`${baseUrl}/ready`, { signal: AbortSignal.timeout(5_000) }).then((response) => response.ok, () => false)
    if (ready) break
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill("SIGKILL")
      throw new Error(`the server did not start:\n${output}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }

  const run = promisify(execFile)
  const cli = async (...args: ReadonlyArray<string>) =>
    (await run(process.execPath, ["dist/server/cli.js", ...args], { cwd: root, env, maxBuffer: 64 * 1024 * 1024 })).stdout
  return {
    baseUrl,
    database: postgres === undefined ? "embedded" : "postgres",
    cli,
    importAnswers: async (ndjson, projectId) => {
      const file = join(dataDir, "answers.ndjson")
      await writeFile(file, ndjson)
      const result = JSON.parse(await cli("import", file, "--project", String(projectId), "--json")) as { read: number; imported: number; skipped: number }
      if (result.skipped > 0 || result.imported !== result.read) throw new Error(`the import refused some answers: ${JSON.stringify(result)}`)
    },
    log: () => output,
    stop: async () => {
      if (child.exitCode === null) {
        child.kill("SIGTERM")
        const timer = setTimeout(() => child.kill("SIGKILL"), 15_000)
        await exited
        clearTimeout(timer)
      }
      if (options.dataDir === undefined) await rm(dataDir, { recursive: true, force: true })
      await postgres?.drop()
    }
  }
}
