/**
 * `npm run build` (after the server's bundles): the service as a library for other programs, the
 * `exports` of package.json (docs/client.md, "Installing the package"):
 * - dist/lib/: ESM modules `client.js`, `server.js`, `domain.js` (and the chunks they share), with
 *   every package left to the host's node_modules, so that a host app and the service share one copy
 *   of `effect` (the Effect packages are peer dependencies);
 * - dist/types/: their declarations, from the sources by the TypeScript compiler (tsconfig.build.json).
 *
 * dist/lib/ sits two folders below the project's root, as dist/server/ does, so the paths the modules
 * resolve from their own location (the dashboard's web/dist/, the analysis thread beside them) are the
 * same as the server's.
 */
import * as esbuild from "esbuild"
import { execFile } from "node:child_process"
import { rm } from "node:fs/promises"
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
  await rm(join(root, "dist", "lib"), { recursive: true, force: true })
  await rm(join(root, "dist", "types"), { recursive: true, force: true })
  await esbuild.build({
    absWorkingDir: root,
    entryPoints,
    outdir: join(root, "dist", "lib"),
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
  await promisify(execFile)(process.execPath, [tsc, "-p", join(root, "tsconfig.build.json")], { cwd: root }).catch(
    (error: { readonly stdout?: string }) => Promise.reject(new Error(`the declarations did not compile:\n${error.stdout ?? error}`))
  )
  return { milliseconds: Math.round(performance.now() - started) }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { milliseconds } = await buildPackage()
  console.log(`built dist/lib and dist/types in ${milliseconds} ms`)
}
