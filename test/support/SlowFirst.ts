import { BaseSequencer, type TestSpecification } from "vitest/node"

/**
 * The longest test files of `npm test` and `npm run test:processes`, longest first (docs/performance.md,
 * "Test time"). Without vitest's cache of the last run's durations (a fresh clone, CI), files start
 * largest first, and a short file holding a slow sweep (the abilities matrix: 50 lines, 342 tests)
 * started last and ran alone while the other worker sat idle. Listed files start first, in this order;
 * the rest follow in vitest's own order. A stale list costs time, never a test.
 */
export const slowFiles: ReadonlyArray<string> = [
  "test/http/fuzz.test.ts",
  "test/browser/dashboard.test.ts",
  "test/http/abilities.test.ts",
  "test/unit/analytics/rollups.test.ts",
  "test/unit/embedded.test.ts",
  "test/cli/import.test.ts",
  "test/cli/cli.test.ts",
  "test/http/concurrency.test.ts",
  "test/http/delete-races.test.ts",
  "test/http/input.test.ts",
  "test/http/tenancy.test.ts",
  "test/http/brands.test.ts",
  "test/unit/analytics/differential.test.ts",
  "test/collector/simulated.test.ts",
  "test/http/runs.test.ts",
  "test/http/list-filters.test.ts",
  "test/mcp/mcp.test.ts",
  "test/http/resources.test.ts",
  "test/http/cursor.test.ts",
  "test/http/responses.test.ts",
  // test:processes (measured at a load of 25-31, where several timed out: the order is rough)
  "test/processes/demo.test.ts",
  "test/processes/backup.test.ts",
  "test/processes/production.test.ts",
  "test/processes/multiprocess.test.ts"
]

export class SlowFirst extends BaseSequencer {
  override async sort(files: Array<TestSpecification>): Promise<Array<TestSpecification>> {
    const sorted = await super.sort(files)
    const rank = (file: TestSpecification) => {
      const index = slowFiles.findIndex((slow) => file.moduleId.endsWith(`/${slow}`))
      return index === -1 ? slowFiles.length : index
    }
    // Array.prototype.sort is stable: unlisted files keep vitest's order.
    return sorted.sort((a, b) => rank(a) - rank(b))
  }
}
