import { createHash } from "node:crypto"
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type CommandRun, runCommand as run, succeeded } from "../support/Processes.ts"
import { startServer, type TestServer } from "../support/TestServer.ts"

/**
 * The package as another project gets it (docs/client.md, "Installing the package"): `npm pack` (which
 * builds it first), the tarball installed into an empty project with no network (`npm install --offline`:
 * the tarball, the Effect packages it names as peers, its runtime dependencies, and TypeScript, all
 * from the local npm cache `npm ci` filled). There, two programs compile with `tsc --noEmit` (strict)
 * against the package's declarations, then run on its JavaScript:
 * - client.ts calls a running server through `brand-visibility-monitor/client`, with the Effect client
 *   and the Promise client, and gets a typed `NotFound`;
 * - host.ts mounts `brand-visibility-monitor/server` beside a route of its own on its own server, on
 *   the in-memory Layers, and calls both (an answer it posts is analysed on the package's worker thread).
 */

const root = fileURLToPath(new URL("../..", import.meta.url))

interface LockEntry {
  readonly version?: string
  readonly dev?: boolean
  readonly [field: string]: unknown
}

/**
 * The host project's package.json and lockfile: it depends on the tarball, on the Effect packages at
 * the versions this repository's lockfile holds (as a host app that has its own), and on TypeScript.
 * The lockfile is this repository's, less its development-only packages: so every package is a tarball
 * `npm ci` put in the cache already, and `npm install --offline` needs no registry document.
 */
const hostLockfile = (tarball: string, tarballBytes: Buffer) => {
  const own = JSON.parse(readFileSync(join(root, "package.json"), "utf8"))
  const { packages } = JSON.parse(readFileSync(join(root, "package-lock.json"), "utf8")) as { packages: Record<string, LockEntry> }
  const tools = ["typescript", "@types/node", "undici-types"]
  const versionOf = (name: string) => packages[`node_modules/${name}`]!.version!
  const dependencies = {
    [own.name]: `file:${tarball}`,
    ...Object.fromEntries([...Object.keys(own.peerDependencies), "typescript", "@types/node"].map((name) => [name, versionOf(name)]))
  }
  const locked: Record<string, unknown> = { "": { name: "host-app", dependencies } }
  for (const [path, entry] of Object.entries(packages)) {
    if (path === "" || (entry.dev === true && !tools.some((tool) => path === `node_modules/${tool}`))) continue
    const { dev: _dev, peer: _peer, devOptional: _devOptional, ...kept } = entry
    locked[path] = kept
  }
  locked[`node_modules/${own.name}`] = {
    version: own.version,
    resolved: `file:${tarball}`,
    integrity: `sha512-${createHash("sha512").update(tarballBytes).digest("base64")}`,
    license: own.license,
    dependencies: own.dependencies,
    peerDependencies: own.peerDependencies,
    engines: own.engines
  }
  return {
    manifest: { name: "host-app", private: true, type: "module", dependencies },
    lockfile: { name: "host-app", lockfileVersion: 3, requires: true, packages: locked }
  }
}

/** The last line a program printed, as JSON. */
const printed = (result: CommandRun) => JSON.parse(result.stdout.trim().split("\n").at(-1)!)

const tsconfig = {
  compilerOptions: {
    target: "ES2022",
    module: "NodeNext",
    moduleResolution: "NodeNext",
    lib: ["ES2022"],
    types: ["node"],
    strict: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: true,
    outDir: "out"
  },
  include: ["*.ts"]
}

/** A program of a TypeScript project that uses the client, with Effect and without. */
const clientProgram = `
import { Effect } from "effect"
import { BrandVisibilityClient, createClient, layer, NotFound } from "brand-visibility-monitor/client"
import type { Prompt } from "brand-visibility-monitor/domain"

const baseUrl = process.env.BVM_URL!
const apiKey = process.env.BVM_API_KEY!

// Without Effect: a project, then a typed 404.
const plain = createClient({ baseUrl, apiKey })
const project = (await plain.projects.create({ payload: { name: "Acme", domain: "acme.com" } })).data
let notFound = ""
try {
  await plain.prompts.get({ path: { prompt: 999_999 }, headers: { "service-project-id": String(project.id) } })
} catch (error) {
  if (error instanceof NotFound) notFound = error.message
}

// With Effect: a monitor and a prompt in that project, then the project's prompts.
const program = Effect.gen(function*() {
  const client = yield* BrandVisibilityClient
  const monitor = (yield* client.monitors.create({
    payload: { name: "US", country: "US", platforms: ["chatgpt"], schedule: "daily", active: true, simulated: true }
  })).data
  const prompt: Prompt = (yield* client.prompts.create({ payload: { monitor_id: monitor.id, text: "Best CRM for a small agency?", tags: [] } })).data
  const page = yield* client.prompts.list({ urlParams: { per_page: "10" } })
  const missing = yield* client.monitors.get({ path: { monitor: 999_999 } }).pipe(
    Effect.map(() => "found"),
    Effect.catchTag("NotFound", (error) => Effect.succeed(error.message))
  )
  return { monitor: monitor.id, prompt: prompt.id, listed: page.data.map((p) => p.text), missing }
})
const made = await Effect.runPromise(program.pipe(Effect.provide(layer({ baseUrl, apiKey, projectId: project.id }))))
console.log(JSON.stringify({ project: project.id, notFound, ...made }))
`

/** A program of an Effect app that serves its own route and the service's API on one server. */
const hostProgram = `
import { HttpApiBuilder, HttpServer, HttpServerResponse } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import { Effect, Layer, Logger, LogLevel, ManagedRuntime } from "effect"
import { createServer } from "node:http"
import { createClient } from "brand-visibility-monitor/client"
import { Analyzer, ApiRoutesLive, createOrganizationWithKey, MemoryLive, Metrics, Settings } from "brand-visibility-monitor/server"

// The host's own route, beside the service's.
const HelloLive = HttpApiBuilder.Router.use((router) => router.get("/hello", HttpServerResponse.text("hello from the host")))

const App = HttpApiBuilder.serve().pipe(
  Layer.provide(Layer.mergeAll(ApiRoutesLive, HelloLive)),
  // Answers analysed on the package's own worker thread (dist/lib/analysis-thread.js).
  Layer.provide([Analyzer.threads(1), Metrics.layer]),
  Layer.provideMerge(MemoryLive),
  Layer.provide(Settings.layerWith({ worker: false })),
  Layer.provideMerge(NodeHttpServer.layer(createServer, { port: 0, host: "127.0.0.1" })),
  Layer.provide(Logger.minimumLogLevel(LogLevel.Warning))
)

const runtime = ManagedRuntime.make(App)
const address = await runtime.runPromise(HttpServer.addressWith(Effect.succeed))
if (address._tag !== "TcpAddress") throw new Error("expected a TCP address")
const baseUrl = \`http://127.0.0.1:\${address.port}\`
const { key, organization } = await runtime.runPromise(createOrganizationWithKey({ organization: "Host Org", abilities: ["*"] }))

const hello = await fetch(\`\${baseUrl}/hello\`).then((reply) => reply.text())
const unauthenticated = await fetch(\`\${baseUrl}/api/v1/me\`).then((reply) => reply.status)
const bvm = createClient({ baseUrl, apiKey: key })
const me = await bvm.me.me()
const project = (await bvm.projects.create({ payload: { name: "Host project" } })).data
const scoped = createClient({ baseUrl, apiKey: key, projectId: project.id })
const monitor = (await scoped.monitors.create({
  payload: { name: "US", country: "US", platforms: ["chatgpt"], schedule: "daily", active: true, simulated: true }
})).data
const brand = (await scoped.brands.create({ payload: { name: "Acme", aliases: [], domains: ["acme.com"], classification: "competitor", segment_ids: [] } })).data
const prompt = (await scoped.prompts.create({ payload: { monitor_id: monitor.id, text: "Best CRM?", tags: [] } })).data
const answer = (await scoped.responses.create({
  payload: { prompt_id: prompt.id, platform: "chatgpt", text: "Acme is the best CRM.", citations: ["https://acme.com/crm"] }
})).data
const mentions = (await scoped.brandMentions.list({ urlParams: { response_id: answer.id } })).data
await runtime.dispose()
console.log(JSON.stringify({
  hello,
  unauthenticated,
  organization: organization.id,
  me: me.data.organization,
  analysed: { status: answer.status, mentioned: mentions.map((mention) => mention.brand_id), brand: brand.id }
}))
`

describe("the package: npm pack, installed offline into an empty project, compiled and run there", { timeout: 300_000 }, () => {
  const folder = mkdtempSync(join(tmpdir(), "bvm-package-"))
  const host = join(folder, "host")
  let server: TestServer
  let tarball: string

  beforeAll(async () => {
    // `npm pack` builds the package first (its `prepack` script).
    succeeded("npm pack", await run("npm", ["pack", "--pack-destination", folder], root))
    tarball = readdirSync(folder).find((name) => name.endsWith(".tgz"))!
    mkdirSync(host)
    copyFileSync(join(folder, tarball), join(host, tarball))
    const { manifest, lockfile } = hostLockfile(tarball, readFileSync(join(host, tarball)))
    writeFileSync(join(host, "package.json"), JSON.stringify(manifest, null, 2))
    writeFileSync(join(host, "package-lock.json"), JSON.stringify(lockfile, null, 2))
    writeFileSync(join(host, "tsconfig.json"), JSON.stringify(tsconfig, null, 2))
    writeFileSync(join(host, "client.ts"), clientProgram)
    writeFileSync(join(host, "host.ts"), hostProgram)
    succeeded("npm install --offline", await run("npm", ["install", "--offline", "--no-audit", "--no-fund"], host))
    server = await startServer("memory")
  }, 900_000)

  afterAll(async () => {
    await server?.close()
    rmSync(folder, { recursive: true, force: true })
  })

  it("packs the library's modules and declarations only: no sources, no server bundle, no dashboard", async () => {
    const listed = succeeded("tar -tzf", await run("tar", ["-tzf", join(folder, tarball)], folder))
    const files = listed.stdout.trim().split("\n").map((path) => path.replace(/^package\//, ""))
    expect(files).toContain("dist/lib/client.js")
    expect(files).toContain("dist/lib/server.js")
    expect(files).toContain("dist/lib/domain.js")
    expect(files).toContain("dist/lib/analysis-thread.js")
    expect(files).toContain("dist/types/src/Client/index.d.ts")
    expect(files.filter((file) => !/^(dist\/lib\/|dist\/types\/|package\.json$|README\.md$|LICENSE$)/.test(file))).toEqual([])
    expect(statSync(join(folder, tarball)).size).toBeLessThan(1_000_000)
  })

  it("imports no package it does not name as a dependency or a peer", () => {
    const own = JSON.parse(readFileSync(join(root, "package.json"), "utf8"))
    const named = new Set([...Object.keys(own.dependencies), ...Object.keys(own.peerDependencies)])
    const lib = join(host, "node_modules", own.name, "dist", "lib")
    const imported = new Set(readdirSync(lib).flatMap((file) =>
      [...readFileSync(join(lib, file), "utf8").matchAll(/(?:from|import\()\s*"([^".][^"]*)"/g)].map((match) => match[1]!)
    ))
    const packages = [...imported].filter((specifier) => !specifier.startsWith("node:"))
      .map((specifier) => specifier.split("/").slice(0, specifier.startsWith("@") ? 2 : 1).join("/"))
    expect(packages).toContain("effect")
    expect(packages.filter((name) => !named.has(name))).toEqual([])
  })

  it("installs the Effect packages once, as the host's, beside the package's runtime dependencies only", () => {
    const modules = join(host, "node_modules")
    expect(existsSync(join(modules, "brand-visibility-monitor", "dist", "lib", "client.js"))).toBe(true)
    expect(existsSync(join(modules, "effect"))).toBe(true)
    expect(existsSync(join(modules, "brand-visibility-monitor", "node_modules", "effect"))).toBe(false)
    for (const development of ["esbuild", "tsx", "preact", "vitest", "@scalar/api-reference", "playwright-core"]) {
      expect(existsSync(join(modules, development)), development).toBe(false)
    }
  })

  it("compiles both programs against the package's declarations (tsc --noEmit, strict)", async () => {
    const tsc = join(host, "node_modules", "typescript", "bin", "tsc")
    succeeded("tsc --noEmit", await run(process.execPath, [tsc, "--noEmit", "-p", "."], host))
    // A call that does not match its endpoint does not compile.
    writeFileSync(join(host, "wrong.ts"), `
import { createClient } from "brand-visibility-monitor/client"
await createClient({ baseUrl: "http://localhost:3000", apiKey: "k" }).prompts.get({ path: { prompt: "one" } })
`)
    const wrong = await run(process.execPath, [tsc, "--noEmit", "-p", "."], host)
    rmSync(join(host, "wrong.ts"))
    expect(wrong.code).not.toBe(0)
    expect(wrong.stdout).toContain("wrong.ts")
    // Then emitted, to run.
    succeeded("tsc", await run(process.execPath, [tsc, "-p", "."], host))
    expect(readdirSync(join(host, "out")).sort()).toEqual(["client.js", "host.js"])
  })

  it("calls a running server through ./client, with Effect and with Promises", async () => {
    const organization = await server.createOrganization("Package Org")
    const { key } = await server.createKey(organization.id, ["*"])
    const result = printed(succeeded("client.js", await run(process.execPath, ["out/client.js"], host, { BVM_URL: server.baseUrl, BVM_API_KEY: key })))
    expect(result.notFound).toBe("Prompt not found")
    expect(result.missing).toBe("Monitor not found")
    expect(result.listed).toEqual(["Best CRM for a small agency?"])
    // What the programs made is on the server.
    const prompt = await server.request("GET", `/api/v1/prompts/${result.prompt}`, { key, project: result.project })
    expect(prompt.status).toBe(200)
    expect(prompt.body.data).toMatchObject({ id: result.prompt, monitor_id: result.monitor, text: "Best CRM for a small agency?" })
  })

  it("mounts ./server beside the host's own route and answers both", async () => {
    const result = printed(succeeded("host.js", await run(process.execPath, ["out/host.js"], host)))
    expect(result).toEqual({
      hello: "hello from the host",
      unauthenticated: 401,
      organization: result.organization,
      me: { id: result.organization, name: "Host Org" },
      // Analysed on the package's worker thread: the brand found in the answer.
      analysed: { status: "analyzed", mentioned: [result.analysed.brand], brand: result.analysed.brand }
    })
    expect(typeof result.organization).toBe("number")
  })
})
