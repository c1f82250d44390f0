// The analysis thread (analysis-thread.ts) when the service runs from its sources (tsx, the tests): a
// thread does not inherit its parent's TypeScript loader, so it registers tsx before loading the entry.
// The built service starts dist/server/analysis-thread.js instead.
import { register } from "tsx/esm/api"

register()
await import("./analysis-thread.ts")
