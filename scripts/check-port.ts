/**
 * `npm start`'s first step: the port PORT names must be free, or the start stops here, before building
 * anything, with the same words as the server's own check (src/Http/PortCheck.ts, run again by
 * dist/server/main.js before it migrates the database).
 */
import { Config, Effect } from "effect"
import { reasonOf } from "../src/Logging.ts"
import { checkPort } from "../src/Http/PortCheck.ts"

const port = Config.port("PORT").pipe(Config.withDefault(3000))

await Effect.runPromise(Effect.flatMap(port, (value) => checkPort(value)).pipe(
  Effect.catchAll((error) =>
    Effect.sync(() => {
      console.error(`npm start: ${error._tag === "PortUnavailable" ? reasonOf(error) : String(error)}`)
      process.exit(1)
    })
  )
))
