import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The migrated database every suite starts from, made once for the run.
    globalSetup: ["test/support/globalSetup.ts"],
    // Each HTTP test file boots its own server and database; PGlite start-up dominates.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The machine has 2 cores; more workers only contend for them.
    maxWorkers: 2,
    minWorkers: 1
  }
})
