import { readFile } from "node:fs/promises"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type BuildResult, buildWeb, distDir } from "../../scripts/build-web.ts"
import { pages } from "../../web/routes.ts"
import { acceptsGzip, answerFile, contentSecurityPolicy, loadSite } from "../../src/Web/Site.ts"
import { startServer, type TestServer } from "../support/TestServer.ts"

/** The dashboard as served (src/Web), without a browser: paths, headers, and the API's 404s kept. */
describe("dashboard serving", () => {
  let server: TestServer
  let build: BuildResult
  let script: string
  beforeAll(async () => {
    build = await buildWeb()
    server = await startServer("memory")
    script = build.files.find((file) => file.path.endsWith(".js"))!.path
  })
  afterAll(() => server.close())

  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${server.baseUrl}${path}`, { headers })

  it("answers the page on / and on every page's path (with a query), so a reload of any page works", async () => {
    const paths = ["/", "/sign-in", "/prompts", "/sources?view=urls&sort=url", "/answers", "/answers/12", "/collector", "/setup", "/setup/brands", "/keys"]
    for (const path of paths) {
      const response = await get(path)
      expect(response.status, path).toBe(200)
      expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8")
      const html = await response.text()
      expect(html).toContain('<div id="app">')
      expect(html).toContain(`<script type="module" src="${script}"></script>`)
    }
    // Every page of web/routes.ts is among them.
    expect(Object.values(pages).map((pattern) => pattern.replace(":id", "12").replace(":section", "brands")).every((path) => paths.some((p) => p.split("?")[0] === path))).toBe(true)
  })

  it("sends a Content-Security-Policy allowing only the service itself, and hardening headers", async () => {
    const response = await get("/")
    const csp = response.headers.get("content-security-policy")!
    expect(csp).toBe(contentSecurityPolicy)
    expect(csp).toContain("default-src 'self'")
    expect(csp).toContain("script-src 'self'")
    expect(csp).toContain("style-src 'self'")
    expect(csp).toContain("connect-src 'self'")
    expect(csp).toContain("frame-ancestors 'none'")
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|https?:|\*/)
    expect(response.headers.get("x-content-type-options")).toBe("nosniff")
    expect(response.headers.get("referrer-policy")).toBe("no-referrer")
    expect(response.headers.get("x-frame-options")).toBe("DENY")
    const asset = await get(script)
    expect(asset.headers.get("content-security-policy")).toBe(contentSecurityPolicy)
  })

  it("lets browsers keep hashed assets for a year and revalidate the page, each with its content type", async () => {
    const page = await get("/")
    expect(page.headers.get("cache-control")).toBe("no-cache")
    expect(page.headers.get("etag")).toMatch(/^W\/"[\w-]+"$/)
    const types: Record<string, string> = {
      ".js": "text/javascript; charset=utf-8",
      ".css": "text/css; charset=utf-8",
      ".svg": "image/svg+xml",
      ".map": "application/json; charset=utf-8"
    }
    for (const file of build.files.filter((file) => file.path.startsWith("/assets/"))) {
      const response = await get(file.path)
      expect(response.status, file.path).toBe(200)
      expect(response.headers.get("cache-control"), file.path).toBe("public, max-age=31536000, immutable")
      expect(response.headers.get("content-type"), file.path).toBe(types[file.path.slice(file.path.lastIndexOf("."))])
      expect(Buffer.from(await response.arrayBuffer()).equals(await readFile(join(distDir, file.path))), file.path).toBe(true)
    }
  })

  it("gzips for clients that accept it, and answers 304 to a current ETag", async () => {
    const plain = await get(script, { "accept-encoding": "identity" })
    expect(plain.headers.get("content-encoding")).toBeNull()
    const gzipped = await get(script, { "accept-encoding": "gzip, br" })
    expect(gzipped.headers.get("content-encoding")).toBe("gzip")
    expect(gzipped.headers.get("vary")).toBe("Accept-Encoding")
    expect(await gzipped.text()).toBe(await plain.text())
    const refused = await get(script, { "accept-encoding": "gzip;q=0" })
    expect(refused.headers.get("content-encoding")).toBeNull()
    const etag = plain.headers.get("etag")!
    const again = await get(script, { "if-none-match": etag })
    expect(again.status).toBe(304)
    expect(await again.text()).toBe("")
    expect((await get("/", { "if-none-match": etag })).status).toBe(200)
  })

  it("keeps the API's JSON 404 for unknown paths under /api/v1 and anywhere the dashboard has no page", async () => {
    for (const path of ["/api/v1/nope", "/api/v1/", "/api/v1/sign-in", "/api/v2/prompts", "/nope", "/answers/12/extra", "/setup/brands/1", "/assets/missing.js", "/assets/", "/index.html"]) {
      const response = await get(path)
      expect(response.status, path).toBe(404)
      expect(response.headers.get("content-type"), path).toBe("application/json")
      expect(await response.json(), path).toEqual({ message: "Not found" })
    }
    const post = await fetch(`${server.baseUrl}/`, { method: "POST" })
    expect(post.status).toBe(404)
    expect(await post.json()).toEqual({ message: "Not found" })
    // The API is untouched: a key is still needed.
    expect((await get("/api/v1/me")).status).toBe(401)
  })

  it("loads nothing from another origin: the page names only its own assets", async () => {
    const html = await (await get("/")).text()
    const references = [...html.matchAll(/\b(?:src|href)="([^"]+)"/g)].map((match) => match[1]!)
    expect(references.length).toBeGreaterThanOrEqual(3)
    expect(references.filter((reference) => !reference.startsWith("/assets/") && reference !== "/docs")).toEqual([])
    const sources = await Promise.all(build.files.filter((file) => /\.(js|css)$/.test(file.path)).map((file) => readFile(join(distDir, file.path), "utf8")))
    // An address with a host: the markdown parser's `url = "http://" + text` (a `www.` link of an answer) names none.
    for (const source of sources) expect(source).not.toMatch(/(?:src|href|url)\s*[=(]\s*["']?https?:\/\/[\w.-]/)
  })

  it("keeps the first page's JavaScript within 250 KB gzipped", () => {
    expect(build.scriptGzipBytes).toBeGreaterThan(1000)
    expect(build.scriptGzipBytes).toBeLessThanOrEqual(250 * 1024)
  })
})

describe("dashboard serving rules", () => {
  it("reads Accept-Encoding as HTTP does", () => {
    expect(acceptsGzip("gzip")).toBe(true)
    expect(acceptsGzip("deflate, gzip;q=0.5")).toBe(true)
    expect(acceptsGzip("*")).toBe(true)
    expect(acceptsGzip("gzip;q=0")).toBe(false)
    expect(acceptsGzip("br, deflate")).toBe(false)
    expect(acceptsGzip(undefined)).toBe(false)
  })

  it("answers 503 saying how to build when there is no build", async () => {
    const site = await loadSite("/nonexistent/dist")
    expect(site).toBeUndefined()
    const answer = answerFile(site, "/index.html", {})
    expect(answer.status).toBe(503)
    expect(new TextDecoder().decode(answer.body)).toContain("npm run build:web")
  })
})
