import { configDefaults, defineConfig } from "vitest/config"
import { SlowFirst } from "./test/support/SlowFirst.ts"

/**
 * `npm test`: every test but the process tests of test/processes/, which start the built service as
 * users do (npm start, several servers and workers, an --omit=dev install, a backup under writes) and
 * spend most of their time waiting for processes: `npm run test:processes` runs them
 * (vitest.processes.config.ts), and CI runs both.
 *
 * CI's second pass repeats the suite on PostgreSQL (`BVM_TEST_SQL_PASS=1`, .ci/run): the files that run on
 * the embedded database whatever DATABASE_URL says, and the browser tests, ran in its first pass already.
 */
export const embeddedOnly = [
  "test/processes/shutdown.test.ts",
  "test/processes/production.test.ts",
  // On the in-memory repositories whatever DATABASE_URL says.
  "test/processes/package.test.ts",
  "test/unit/embedded.test.ts"
]
const sqlPass = process.env.BVM_TEST_SQL_PASS === "1"

export const shared = {
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
  minWorkers: 1,
  // The slowest files first (test/support/SlowFirst.ts): none is left to run alone at the end.
  sequence: { sequencer: SlowFirst },
  // The browser tests draw pages from the API, whose answers the HTTP suites check on both databases:
  // they run in the first pass only, which keeps CI within its time.
  exclude: sqlPass ? [...configDefaults.exclude, ...embeddedOnly, "test/browser/**"] : configDefaults.exclude
}

export default defineConfig({
  test: {
    ...shared,
    include: ["test/**/*.test.ts"],
    exclude: [...shared.exclude, "test/processes/**"]
  }
})
