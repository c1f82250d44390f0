/**
 * `npm run build:web` (and `npm start`, before the server): builds the dashboard from web/ into
 * web/dist/ (git-ignored), which the server serves at `/` (src/Web/Dashboard.ts).
 *
 * One esbuild bundle (TypeScript and JSX for Preact, with uPlot, the CSS and the logo it imports), minified,
 * with content-hashed names so that the server can let browsers cache them for a year; index.html is
 * written last, naming them. Everything comes from the repository and node_modules: the page loads
 * nothing from elsewhere. It takes well under a second.
 *
 * The build is made in a scratch folder, then moved in file by file (each move is atomic, index.html
 * last, stale assets removed after it): a server reading web/dist meanwhile, or a second build at the
 * same time (two test files), never sees a half-written file.
 */
import * as esbuild from "esbuild"
import { mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from "node:fs/promises"
import { basename, extname, join, relative } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { gzipSync } from "node:zlib"

const root = fileURLToPath(new URL("../web/", import.meta.url))
export const distDir = join(root, "dist")

export interface BuiltFile {
  /** The URL path the server answers it at. */
  readonly path: string
  readonly bytes: number
  readonly gzipBytes: number
}

export interface BuildResult {
  readonly files: ReadonlyArray<BuiltFile>
  /** The JavaScript the first page loads, gzipped (all of it: the bundle is not split). */
  readonly scriptGzipBytes: number
  readonly milliseconds: number
}

/** Builds web/dist. */
export const buildWeb = async (): Promise<BuildResult> => {
  const started = performance.now()
  const scratch = await mkdtemp(join(root, ".build-"))
  try {
    const result = await buildInto(scratch)
    await mkdir(join(distDir, "assets"), { recursive: true })
    const built = await readdir(join(scratch, "assets"))
    for (const name of built) await rename(join(scratch, "assets", name), join(distDir, "assets", name))
    await rename(join(scratch, "index.html"), join(distDir, "index.html"))
    for (const name of await readdir(join(distDir, "assets"))) {
      if (!built.includes(name)) await rm(join(distDir, "assets", name), { force: true })
    }
    return { ...result, milliseconds: Math.round(performance.now() - started) }
  } finally {
    await rm(scratch, { recursive: true, force: true })
  }
}

const buildInto = async (outDir: string): Promise<Omit<BuildResult, "milliseconds">> => {
  const assets = join(outDir, "assets")
  await mkdir(assets, { recursive: true })

  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: { app: "src/main.tsx" },
    bundle: true,
    format: "esm",
    platform: "browser",
    target: ["es2020", "chrome100", "firefox100", "safari15"],
    jsx: "automatic",
    loader: { ".svg": "file" },
    // Files the code imports (the logo) are named by their URL, not a path relative to the page.
    publicPath: "/assets",
    jsxImportSource: "preact",
    minify: true,
    sourcemap: "linked",
    legalComments: "linked",
    entryNames: "[name]-[hash]",
    assetNames: "[name]-[hash]",
    outdir: assets,
    metafile: true,
    logLevel: "warning",
    define: { "process.env.NODE_ENV": '"production"' }
  })

  const outputs = Object.keys(result.metafile.outputs).map((file) => join(root, file))
  const script = outputs.find((file) => extname(file) === ".js" && !file.endsWith(".map"))
  const style = outputs.find((file) => extname(file) === ".css")
  // The logo, imported by the app (web/src/components/Logo.tsx), is the page's icon too.
  const icon = outputs.find((file) => basename(file).startsWith("favicon-") && extname(file) === ".svg")
  if (script === undefined || style === undefined || icon === undefined) throw new Error("esbuild made no script, stylesheet or icon")

  const urlOf = (file: string) => `/assets/${basename(file)}`
  const template = await readFile(join(root, "index.html"), "utf8")
  const html = template
    .replace("{{script}}", urlOf(script))
    .replace("{{style}}", urlOf(style))
    .replace("{{icon}}", urlOf(icon))
  await writeFile(join(outDir, "index.html"), html)

  const files: Array<BuiltFile> = []
  for (const file of [join(outDir, "index.html"), ...outputs]) {
    const bytes = await readFile(file)
    files.push({ path: `/${relative(outDir, file).split("\\").join("/")}`, bytes: bytes.length, gzipBytes: gzipSync(bytes, { level: 9 }).length })
  }
  const scriptGzipBytes = files.find((file) => file.path === urlOf(script))!.gzipBytes
  return { files, scriptGzipBytes }
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const built = await buildWeb()
  for (const file of built.files.filter((file) => !file.path.endsWith(".map") && !file.path.endsWith(".txt"))) {
    console.error(`  web/dist${file.path}  ${kb(file.bytes)} (${kb(file.gzipBytes)} gzipped)`)
  }
  console.error(`dashboard built in ${built.milliseconds} ms; first page's JavaScript ${kb(built.scriptGzipBytes)} gzipped`)
}
