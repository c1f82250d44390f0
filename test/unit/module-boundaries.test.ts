import { readdirSync, readFileSync, statSync } from "node:fs"
import { basename, dirname, join, relative, resolve } from "node:path"
import { describe, expect, it } from "vitest"

/**
 * Which module may import which (docs/architecture.md): the HTTP layer (src/Http) depends only on the
 * domain and on services it declares itself; only HTTP modules (an area's `Api*.ts` and `Http*.ts`, the
 * API and server composition) depend on it; and no module reaches into a library's private
 * `internal/` files, which change without notice between versions.
 */
const root = resolve(import.meta.dirname, "../..")
const src = join(root, "src")

const filesUnder = (dir: string): Array<string> =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return name === "node_modules" || name === "dist" ? [] : filesUnder(path)
    return /\.(ts|tsx|mts|mjs|js)$/.test(name) ? [path] : []
  })

/** Every module specifier a file imports or re-exports, static or dynamic. */
const importsOf = (file: string): Array<string> => {
  const text = readFileSync(file, "utf8")
  const specifiers = [
    ...text.matchAll(/^\s*(?:import|export)\s[^;]*?from\s+["']([^"']+)["']/gms),
    ...text.matchAll(/^\s*import\s+["']([^"']+)["']/gm),
    ...text.matchAll(/import\(\s*["']([^"']+)["']\s*\)/g)
  ]
  return specifiers.map((match) => match[1]!)
}

const inside = (path: string, dir: string) => !relative(dir, path).startsWith("..")
const http = join(src, "Http")

/** The modules allowed to import src/Http: the API and server composition, and the areas' HTTP modules. */
const isHttpModule = (file: string) =>
  inside(file, http) ||
  ["Api.ts", "Server.ts", "main.ts"].some((name) => file === join(src, name)) ||
  /^(Api|Http)[A-Za-z]*\.ts$/.test(basename(file))

/** What src/Http may import of src: itself, the domain, and infrastructure that knows no area. */
const allowedBelowHttp = ["Http", "Domain", "Schema", "Database", "Observability", "Config.ts", "Logging.ts"].map((name) => join(src, name))

const relativeImports = (file: string) =>
  importsOf(file).filter((specifier) => specifier.startsWith(".")).map((specifier) => resolve(dirname(file), specifier))

describe("module boundaries", () => {
  const sources = filesUnder(src)

  it("reads the sources", () => {
    expect(sources.length).toBeGreaterThan(100)
    expect(relativeImports(join(src, "Server.ts")).some((target) => inside(target, http))).toBe(true)
  })

  it("no module outside the HTTP layer imports src/Http (the CLI, the worker, the domain, the repositories)", () => {
    const offenders = sources.flatMap((file) =>
      isHttpModule(file)
        ? []
        : relativeImports(file).filter((target) => inside(target, http)).map((target) => `${relative(root, file)} -> ${relative(root, target)}`)
    )
    expect(offenders).toEqual([])
  })

  it("src/Http imports no area: what it needs of them it declares itself (Http/Ports.ts)", () => {
    const offenders = sources.filter((file) => inside(file, http)).flatMap((file) =>
      relativeImports(file)
        .filter((target) => inside(target, src) && !allowedBelowHttp.some((allowed) => target === allowed || inside(target, allowed)))
        .map((target) => `${relative(root, file)} -> ${relative(root, target)}`)
    )
    expect(offenders).toEqual([])
  })

  it("no module imports a library's internal/ files", () => {
    const files = ["src", "scripts", "test", "web"].flatMap((dir) => filesUnder(join(root, dir)))
    const offenders = files.flatMap((file) =>
      importsOf(file)
        .filter((specifier) => (!specifier.startsWith(".") || specifier.includes("node_modules/")) && /(^|\/)internal\//.test(specifier))
        .map((specifier) => `${relative(root, file)} -> ${specifier}`)
    )
    expect(offenders).toEqual([])
  })
})
