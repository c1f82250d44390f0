import { readdirSync, readFileSync } from "node:fs"
import { join, relative } from "node:path"
import { describe, expect, it } from "vitest"

/**
 * The service uses its libraries through what they publish: no import reaches into a package's
 * `internal/` modules or into node_modules by path. Such a module can change in any release, so an
 * upgrade could break the server with nothing in the diff (README, "Upgrading dependencies").
 */
const root = join(import.meta.dirname, "..", "..")

const sourcesIn = (folder: string): Array<string> =>
  readdirSync(join(root, folder), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|tsx|mts|mjs|js)$/.test(entry.name) && !entry.parentPath.includes("node_modules"))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))

/** Every module specifier of a file: static and dynamic imports, re-exports. */
const specifiersOf = (text: string) =>
  [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["'`]([^"'`]+)["'`]/g)].map((match) => match[1]!)

/** A private path of a library: one of its `internal` modules, or a file reached through node_modules. */
const isPrivate = (specifier: string) =>
  specifier.includes("node_modules") || (!specifier.startsWith(".") && /(^|\/)internal(\/|$)/.test(specifier))

describe("imports of libraries", () => {
  const files = ["src", "scripts", "web/src", "test"].flatMap(sourcesIn)

  it("finds the imports it checks", () => {
    expect(files.length).toBeGreaterThan(100)
    expect(specifiersOf(`import { a } from "effect"\nconst m = await import("@effect/platform/HttpApiScalar")`)).toEqual([
      "effect",
      "@effect/platform/HttpApiScalar"
    ])
    expect(isPrivate("@effect/platform/dist/esm/internal/httpApiScalar.js")).toBe(true)
    expect(isPrivate("../../node_modules/@effect/platform/dist/esm/HttpApi.js")).toBe(true)
    expect(isPrivate("./internal/thing.ts")).toBe(false)
  })

  it("reach no library's internal modules", () => {
    const offending = files.flatMap((file) =>
      specifiersOf(readFileSync(join(root, file), "utf8")).filter(isPrivate).map((specifier) => `${file}: ${specifier}`)
    )
    expect(offending).toEqual([])
  })
})
