/**
 * `npm run build` (after the server's bundles): the service as a library for other programs, the
 * `exports` of package.json (docs/client.md, "Installing the package"):
 * - dist/lib/: ESM modules `client.js`, `server.js`, `domain.js` (and the chunks they share), with
 *   every package left to the host's node_modules, so that a host app and the service share one copy
 *   of `effect` (the Effect packages are peer dependencies);
 * - dist/types/: their declarations, from the sources by the TypeScript compiler (tsconfig.build.json).
 *
 * dist/lib/ sits two folders below the project's root, as dist/server/ does, so the paths the modules
 * resolve from their own location (the analysis thread beside them) are the same as the server's.
 *
 * `npm pack` runs it first (the `prepack` script), so a tarball never holds an older build. Each folder
 * is built in a scratch folder and swapped in whole: a build at the same time (the production and the
 * package process tests) never leaves a half-written one, nor chunks of an older build to pack.
 */
import * as esbuild from "esbuild"
import { execFile } from "node:child_process"
import { mkdir, mkdtemp, rename, rm } from "node:fs/promises"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"

const root = fileURLToPath(new URL("../", import.meta.url))

/** Entry point of each export (and the analysis thread the server starts beside its module). */
const entryPoints = {
  client: "src/Client/index.ts",
  server: "src/Embedding/index.ts",
  domain: "src/Domain/index.ts",
  "analysis-thread": "src/analysis-thread.ts"
}

export const buildPackage = async () => {
  const started = performance.now()
  const dist = join(root, "dist")
  await mkdir(dist, { recursive: true })
  const lib = await mkdtemp(join(dist, ".lib-"))
  const types = await mkdtemp(join(dist, ".types-"))
  try {
    await esbuild.build({
      absWorkingDir: root,
      entryPoints,
      outdir: lib,
      bundle: true,
      // Every import of a package stays an import: the host resolves it.
      packages: "external",
      platform: "node",
      target: "node20",
      format: "esm",
      // One copy of each module shared by the entries: a class (an error, a service's tag) is the same in all.
      splitting: true,
      logLevel: "warning"
    })
    const tsc = fileURLToPath(new URL("../node_modules/typescript/bin/tsc", import.meta.url))
    await promisify(execFile)(process.execPath, [tsc, "-p", join(root, "tsconfig.build.json"), "--outDir", types], { cwd: root }).catch(
      (error: { readonly stdout?: string }) => Promise.reject(new Error(`the declarations did not compile:\n${error.stdout ?? error}`))
    )
    await swapIn(lib, join(dist, "lib"))
    await swapIn(types, join(dist, "types"))
  } finally {
    await rm(lib, { recursive: true, force: true })
    await rm(types, { recursive: true, force: true })
  }
  return { milliseconds: Math.round(performance.now() - started) }
}

/** `built` in place of `target`: the old folder moved aside, the new one renamed in, the old removed. */
const swapIn = async (built: string, target: string) => {
  const old = `${built}.old`
  await rename(target, old).catch((error: NodeJS.ErrnoException) => error.code === "ENOENT" ? undefined : Promise.reject(error))
  await rename(built, target)
  await rm(old, { recursive: true, force: true })
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { milliseconds } = await buildPackage()
  console.error(`built dist/lib and dist/types in ${milliseconds} ms`)
}
