import { defineConfig } from "vitest/config"
import { shared } from "./vitest.config.ts"

/**
 * `npm run test:processes`: the process tests (test/processes/), which start the built service as users
 * do and wait on it; `npm test` leaves them out (vitest.config.ts). The same setup and limits.
 */
export default defineConfig({
  test: {
    ...shared,
    include: ["test/processes/**/*.test.ts"]
  }
})
