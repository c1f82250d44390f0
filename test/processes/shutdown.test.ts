import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { createServer, type AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import pg from "pg"
import { afterAll, describe, expect, it } from "vitest"

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * A loopback port the system reports free. A random one may be an ephemeral port a client connection
 * of the other suites already holds, and the server would fail to start.
 */
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo
      server.close(() => resolve(port))
    })
  })

/**
 * The real server started as a process manager starts it, `npm start` (which builds, then runs the
 * server in npm's own child process), on the embedded database: a SIGTERM sent to npm reaches the
 * server, which lets the request in flight finish, refuses new connections, and exits 0 (npm too). The
 * request is held in flight from outside by an open transaction on the published PGlite socket, which
 * queues the server's queries behind it.
 */
describe("graceful shutdown", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "bvm-shutdown-"))
  let child: ChildProcess | undefined
  afterAll(() => {
    child?.kill("SIGKILL")
    rmSync(dataDir, { recursive: true, force: true })
  })

  it("finishes in-flight requests on SIGTERM to npm start, and exits 0", async () => {
    const port = await freePort()
    const { DATABASE_URL: _, ...env } = process.env
    child = spawn("npm", ["start", "--silent"], {
      env: { ...env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: "Warning" },
      stdio: ["ignore", "pipe", "pipe"]
    })
    // Both streams, so that a failed start says why (the log goes to stdout).
    let output = ""
    child.stdout!.on("data", (chunk) => (output += chunk))
    child.stderr!.on("data", (chunk) => (output += chunk))
    let exitCode: number | null | undefined
    const exited = new Promise<number | null>((resolve) =>
      child!.once("exit", (code) => {
        exitCode = code
        resolve(code)
      })
    )
    const base = `http://127.0.0.1:${port}`
    // A first start creates the database files: seconds on an idle machine, more on a busy one.
    const deadline = Date.now() + 90_000
    while (!(await fetch(`${base}/health`).then((r) => r.ok, () => false))) {
      if (exitCode !== undefined) throw new Error(`the server exited with ${exitCode}: ${output}`)
      if (Date.now() > deadline) throw new Error(`the server did not start in 90 s: ${output}`)
      await wait(250)
    }
    const published = JSON.parse(readFileSync(join(dataDir, "embedded-server.json"), "utf8"))
    const blocker = new pg.Client({ host: published.host, port: published.port, user: "postgres", database: "postgres" })
    blocker.on("error", () => {}) // the server closes this socket when it stops
    await blocker.connect()
    await blocker.query("BEGIN")
    await blocker.query("SELECT 1")

    const inFlight = fetch(`${base}/ready`).then(async (reply) => ({ status: reply.status, body: await reply.json() }))
    await wait(300)
    child.kill("SIGTERM")
    await wait(500)
    const newConnection = await fetch(`${base}/health`).then(() => "accepted", () => "refused")
    await blocker.query("COMMIT")

    expect(await inFlight).toEqual({ status: 200, body: { status: "ready" } })
    expect(newConnection).toBe("refused")
    expect(await exited).toBe(0)
    // Nothing left behind: the server was npm's own child, not an orphan of a shell.
    expect(await fetch(`${base}/health`).then(() => "answered", () => "gone")).toBe("gone")
    await blocker.end().catch(() => {})
  }, 150_000)
})
