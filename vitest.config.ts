import { configDefaults, defineConfig } from "vitest/config"

/**
 * CI's second pass repeats the suite on PostgreSQL (`BVM_TEST_SQL_PASS=1`, .ci/run): the files that run on
 * the embedded database whatever DATABASE_URL says ran in its first pass already.
 */
const embeddedOnly = ["test/http/shutdown.test.ts", "test/unit/embedded.test.ts"]

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    exclude: process.env.BVM_TEST_SQL_PASS === "1" ? [...configDefaults.exclude, ...embeddedOnly] : configDefaults.exclude,
    // The migrated database every suite starts from, made once for the run.
    globalSetup: ["test/support/globalSetup.ts"],
    // Each HTTP test file boots its own server and database; PGlite start-up dominates.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The machine has 2 cores; more workers only contend for them.
    maxWorkers: 2,
    // A worker loads the service's modules once for all its files rather than once per file: every
    // file starts its own servers and databases, so they share nothing else, and the suite takes
    // ~155 s instead of ~255 s here (loading the Effect stack anew was a third of the time).
    isolate: false,
    minWorkers: 1
  }
})
