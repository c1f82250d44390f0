import { Effect, Layer, Logger, LogLevel, Redacted } from "effect"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import pg from "pg"
import * as Database from "../../src/Database/Database.ts"
import * as Migrations from "../../src/Database/Migrations.ts"
import type { TestProject } from "vitest/node"
import { buildServer } from "../../scripts/build-server.ts"
import { FOUND_VARIABLE, isCi, MISSING_VARIABLE, missingBrowserMessage, resolveBrowser } from "../browser/support/find-browser.ts"

/**
 * Once for the whole run, before any test file: the server's build (dist/server/), which the tests that
 * start processes run, and the migrated database every suite starts from, so that
 * no file pays for the migrations (a few seconds each, on the embedded database). The embedded one as a
 * snapshot in a file (BVM_TEST_EMBEDDED_SNAPSHOT), PostgreSQL's as a template database
 * (BVM_TEST_PG_TEMPLATE) that `CREATE DATABASE ... TEMPLATE` copies. The suites that test the
 * migrations themselves start from an empty database (test/support/Databases.ts, `freshSql`): on the
 * embedded database a snapshot too (BVM_TEST_EMBEDDED_EMPTY), taken just after PGlite's initdb, which
 * is most of an empty database's start-up.
 *
 * It also finds the browser the browser tests drive (test/browser/support/find-browser.ts). Without one,
 * those tests are skipped and the run ends by saying which did not run and the command that runs them;
 * under CI they run and fail.
 */
export default async function setup(project: TestProject) {
  const browser = await resolveBrowser()
  if (typeof browser === "string") process.env[MISSING_VARIABLE] = browser
  else process.env[FOUND_VARIABLE] = JSON.stringify(browser)

  const quiet = <A, E>(effect: Effect.Effect<A, E>) => Effect.runPromise(Logger.withMinimumLogLevel(effect, LogLevel.None))
  const folder = mkdtempSync(join(tmpdir(), "bvm-test-"))
  const save = async (name: string, snapshot: Blob) => {
    const file = join(folder, name)
    writeFileSync(file, Buffer.from(await snapshot.arrayBuffer()))
    return file
  }
  // The processes the tests start (the CLI, the server, workers) run as users run them: built, by
  // esbuild's own process while this one makes the databases.
  const [, migrated, empty] = await Promise.all([
    buildServer(),
    quiet(Database.embeddedSnapshot(Migrations.layer)).then((snapshot) => save("migrated.tar", snapshot)),
    quiet(Database.embeddedSnapshot(Layer.empty)).then((snapshot) => save("empty.tar", snapshot))
  ])
  process.env.BVM_TEST_EMBEDDED_SNAPSHOT = migrated
  process.env.BVM_TEST_EMBEDDED_EMPTY = empty

  let dropTemplate = async () => {}
  const serverUrl = process.env.DATABASE_URL
  if (serverUrl) {
    const name = `bvm_test_template_${process.pid}_${Date.now()}`
    const admin = new pg.Client({ connectionString: serverUrl })
    await admin.connect()
    await admin.query(`CREATE DATABASE ${name}`)
    const url = new URL(serverUrl)
    url.pathname = `/${name}`
    await quiet(Effect.scoped(Layer.build(Migrations.layer.pipe(Layer.provide(Database.layerServer(Redacted.make(url.toString())))))))
    process.env.BVM_TEST_PG_TEMPLATE = name
    dropTemplate = async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await admin.end()
    }
  }
  return async () => {
    await dropTemplate()
    rmSync(folder, { recursive: true, force: true })
    if (typeof browser === "string" && !isCi()) {
      // The browser test files of this run, skipped for want of a browser: said last, after the summary.
      const skipped = project.vitest.state.getFiles()
        .filter((file) => file.filepath.includes("/test/browser/") && file.tasks.some((task) => task.mode === "skip"))
        .map((file) => file.name)
      if (skipped.length > 0) process.stderr.write(`\n${missingBrowserMessage(browser, skipped)}\n`)
    }
  }
}
