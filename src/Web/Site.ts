import { createHash } from "node:crypto"
import { readdir, readFile } from "node:fs/promises"
import { extname, join } from "node:path"
import { gzipSync } from "node:zlib"

/**
 * The built dashboard (web/dist, made by scripts/build-web.ts) held in memory, and how each of its
 * files is answered: pure functions of the request's path and headers, so that the rules below are
 * plain to read and test.
 *
 * - The HTML page is the same for every page of the dashboard (it routes in the browser); it must be
 *   revalidated on every load (`no-cache`, with an ETag), so a new build shows at once.
 * - Assets have a content hash in their name: cached for a year, `immutable`.
 * - Every answer carries a Content-Security-Policy allowing nothing but this origin (no inline script
 *   or style, no other host), and the usual hardening headers.
 * - Text files are sent gzipped to clients that accept it (compressed once, when loaded).
 */

export const contentSecurityPolicy = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'"
].join("; ")

/** Headers on every dashboard answer. */
export const securityHeaders: Readonly<Record<string, string>> = {
  "content-security-policy": contentSecurityPolicy,
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
  "permissions-policy": "camera=(), microphone=(), geolocation=(), payment=(), usb=()"
}

const contentTypes: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".map": "application/json; charset=utf-8",
  ".txt": "text/plain; charset=utf-8"
}

interface File {
  readonly body: Uint8Array
  /** Only when it is smaller than the body. */
  readonly gzip: Uint8Array | undefined
  readonly contentType: string
  readonly etag: string
  readonly cacheControl: string
}

/** The files of a build, by URL path (`/index.html`, `/assets/app-XXXX.js`). */
export type Site = ReadonlyMap<string, File>

export interface Answer {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly body: Uint8Array | undefined
}

const immutable = "public, max-age=31536000, immutable"

const makeFile = (path: string, body: Uint8Array): File => {
  const contentType = contentTypes[extname(path)] ?? "application/octet-stream"
  const compressible = contentType.startsWith("text/") || contentType.startsWith("application/json") || contentType === "image/svg+xml"
  const gzip = compressible ? gzipSync(body, { level: 9 }) : undefined
  return {
    body,
    gzip: gzip !== undefined && gzip.length < body.length ? gzip : undefined,
    contentType,
    // Weak: the gzipped and the plain answer are the same content in two encodings.
    etag: `W/"${createHash("sha256").update(body).digest("base64url").slice(0, 22)}"`,
    cacheControl: path === "/index.html" ? "no-cache" : immutable
  }
}

/** The build in `dir`, or undefined when there is none (no index.html). */
export const loadSite = async (dir: string): Promise<Site | undefined> => {
  const index = await readFile(join(dir, "index.html")).catch(() => undefined)
  if (index === undefined) return undefined
  const site = new Map<string, File>([["/index.html", makeFile("/index.html", index)]])
  const assets = await readdir(join(dir, "assets")).catch(() => [] as Array<string>)
  for (const name of assets) {
    site.set(`/assets/${name}`, makeFile(`/assets/${name}`, await readFile(join(dir, "assets", name))))
  }
  return site
}

const weakly = (etag: string) => etag.replace(/^W\//, "")

/** Whether an Accept-Encoding header accepts gzip (`gzip;q=0` refuses it). */
export const acceptsGzip = (acceptEncoding: string | undefined): boolean =>
  (acceptEncoding ?? "").split(",").some((part) => {
    const [coding, ...parameters] = part.trim().toLowerCase().split(";").map((s) => s.trim())
    if (coding !== "gzip" && coding !== "*") return false
    const q = parameters.find((p) => p.startsWith("q="))
    return q === undefined || Number(q.slice(2)) > 0
  })

const notBuilt = new TextEncoder().encode(
  "The dashboard has not been built. Run `npm run build:web` (`npm start` does it before starting the server).\n"
)

/**
 * The answer for one file of the site: 200 with the file (gzipped when accepted), 304 when the
 * client's copy is current, 404 for a path the build lacks, 503 when there is no build at all.
 */
export const answerFile = (
  site: Site | undefined,
  path: string,
  requestHeaders: { readonly "accept-encoding"?: string | undefined; readonly "if-none-match"?: string | undefined }
): Answer => {
  if (site === undefined) {
    return {
      status: 503,
      headers: { ...securityHeaders, "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
      body: notBuilt
    }
  }
  const file = site.get(path)
  if (file === undefined) {
    return {
      status: 404,
      headers: { "content-type": "application/json", "cache-control": "no-cache" },
      body: new TextEncoder().encode(JSON.stringify({ message: "Not found" }))
    }
  }
  const gzipped = file.gzip !== undefined && acceptsGzip(requestHeaders["accept-encoding"])
  const headers: Record<string, string> = {
    ...securityHeaders,
    "content-type": file.contentType,
    "cache-control": file.cacheControl,
    etag: file.etag,
    vary: "Accept-Encoding"
  }
  const ifNoneMatch = requestHeaders["if-none-match"]
  if (ifNoneMatch !== undefined && ifNoneMatch.split(",").some((tag) => weakly(tag.trim()) === weakly(file.etag))) {
    return { status: 304, headers, body: undefined }
  }
  if (gzipped) headers["content-encoding"] = "gzip"
  return { status: 200, headers, body: gzipped ? file.gzip! : file.body }
}
