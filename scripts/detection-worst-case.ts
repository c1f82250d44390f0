/**
 * The answers that cost brand detection most, sent to the built server as `npm start` runs it
 * (docs/security.md, "Brand detection"): how long `POST /responses` takes with each, and the longest
 * `GET /health` waited meanwhile (asked every 10 ms). Not part of the test suite.
 *
 *   npm run build && node --import tsx scripts/detection-worst-case.ts [--root DIR] [--runs N] [--limits] [--only NAME]
 *
 * `--root` runs another checkout's build (a former version, to compare); `--limits` adds the project at
 * every limit at once (1,000 brands of 50 aliases of 255 characters: some minutes to create); `--only`
 * keeps the scenarios whose name starts so (report, nested, limits). The server
 * gets a fresh embedded database in a temporary folder and is stopped at the end.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { promisify } from "node:util"
import { freePort } from "./bench/http/processes.ts"

const argument = (name: string): string | undefined => {
  const at = process.argv.indexOf(name)
  return at === -1 ? undefined : process.argv[at + 1]
}
const root = resolve(argument("--root") ?? new URL("..", import.meta.url).pathname)
const runs = Number(argument("--runs") ?? 3)

const dataDir = mkdtempSync(join(tmpdir(), "bvm-worst-case-"))
const port = await freePort()
const base = `http://127.0.0.1:${port}`
const env = { ...process.env, DATA_DIR: dataDir, PORT: String(port), WORKER: "off", LOG_LEVEL: "warning", RATE_LIMIT_PER_MINUTE: "1000000" }

/** A CLI command (`group`, `command`) with `--json`, then its arguments: what it prints, parsed. */
const cli = async (group: string, command: string, ...args: Array<string>) =>
  JSON.parse((await promisify(execFile)("node", [join(root, "dist/server/cli.js"), group, command, "--json", ...args], { env })).stdout)

let server: ChildProcess | undefined
const stop = () => {
  server?.kill("SIGTERM")
  rmSync(dataDir, { recursive: true, force: true })
}

try {
  server = spawn("node", [join(root, "dist/server/main.js")], { env, stdio: ["ignore", "ignore", "inherit"] })
  for (let ready = false; !ready;) {
    await new Promise((wait) => setTimeout(wait, 200))
    ready = await fetch(`${base}/health`).then((reply) => reply.ok, () => false)
  }
  const organization = await cli("orgs", "create", "Worst case")
  const { key } = await cli("keys", "create", "--org", String(organization.id), "--name", "k", "--abilities", "*")
  const call = async (method: string, path: string, body?: unknown, project?: number) => {
    const reply = await fetch(`${base}/api/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        "content-type": "application/json",
        ...(project === undefined ? {} : { "service-project-id": String(project) })
      },
      body: body === undefined ? undefined : JSON.stringify(body)
    })
    const json = await reply.json() as { data: { id: number } }
    if (reply.status !== 201) throw new Error(`${method} ${path}: ${reply.status} ${JSON.stringify(json)}`)
    return json.data.id
  }

  /** A project with these brands (name, aliases), and a prompt to answer. */
  const projectWith = async (name: string, brands: ReadonlyArray<{ name: string; aliases: ReadonlyArray<string> }>) => {
    const project = await call("POST", "/projects", { name })
    const monitor = await call("POST", "/monitors", { name: "M", country: "US", platforms: ["chatgpt"], schedule: "daily", active: true }, project)
    const prompt = await call("POST", "/prompts", { monitor_id: monitor, text: "Which a?", tags: [] }, project)
    for (const brand of brands) await call("POST", "/brands", brand, project)
    return { project, prompt }
  }

  /** The report's alias: "a a … a z<brand>x<alias>", 255 characters. */
  const stallingAlias = (brand: number, alias: number) => {
    const tail = ` z${brand}x${alias}`
    return `${"a ".repeat(127).slice(0, 255 - tail.length)}${tail}`
  }
  const scenarios = [
    {
      name: "report: 6 brands x 50 aliases 'a a ... a z<b>x<i>', text 'a ' x 100,000",
      brands: Array.from({ length: 6 }, (_, b) => ({ name: `Brand ${b}`, aliases: Array.from({ length: 50 }, (_, i) => stallingAlias(b, i)) }))
    },
    {
      name: "nested: 6 brands x 50 aliases 'a', 'a a', ... (every one found at every word), same text",
      brands: Array.from({ length: 6 }, (_, b) => ({
        name: `Brand ${b}`,
        aliases: Array.from({ length: 50 }, (_, i) => "a ".repeat(b * 10 + i + 1).trim())
      }))
    },
    ...process.argv.includes("--limits")
      ? [{
        name: "limits: 1,000 brands x 50 aliases of 255 characters 'a a ... a z<b>x<i>', same text",
        brands: Array.from({ length: 1000 }, (_, b) => ({ name: `Brand ${b}`, aliases: Array.from({ length: 50 }, (_, i) => stallingAlias(b, i)) }))
      }]
      : []
  ]
  const text = "a ".repeat(100_000)

  const only = argument("--only")
  for (const scenario of scenarios.filter((scenario) => only === undefined || scenario.name.startsWith(only))) {
    const { project, prompt } = await projectWith(scenario.name.slice(0, 40), scenario.brands)
    for (let run = 1; run <= runs; run++) {
      let longestHealth = 0
      let failedHealth = 0
      let posting = true
      const polling = (async () => {
        while (posting) {
          const asked = performance.now()
          // A server that cannot read a request for a minute drops the connection (Node's request timeout).
          const ok = await fetch(`${base}/health`).then((reply) => reply.ok, () => false)
          if (!ok) failedHealth++
          longestHealth = Math.max(longestHealth, performance.now() - asked)
          await new Promise((wait) => setTimeout(wait, 10))
        }
      })()
      const started = performance.now()
      await call("POST", "/responses", { prompt_id: prompt, platform: "chatgpt", text }, project)
      const took = performance.now() - started
      posting = false
      await polling
      console.log(
        `${scenario.name} | run ${run}: POST /responses 201 in ${took.toFixed(0)} ms, longest /health ${longestHealth.toFixed(0)} ms` +
          (failedHealth > 0 ? ` (${failedHealth} /health dropped)` : "")
      )
    }
  }
} finally {
  stop()
}
