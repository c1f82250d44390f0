import { Command } from "@effect/cli"
import packageJson from "../../package.json" with { type: "json" }
import { backup, restore } from "./Backup.ts"
import { candidates } from "./Candidates.ts"
import { collector } from "./Collector.ts"
import { importCommand } from "./Import.ts"
import { keys } from "./Keys.ts"
import { migrate } from "./Migrate.ts"
import { orgs } from "./Orgs.ts"
import { reanalyze } from "./Reanalyze.ts"

/** `bvm`: administration of the service from the shell (organizations, API keys, schema, bulk import, re-analysis, backups, platform checks). */
export const root = Command.make("bvm").pipe(
  Command.withDescription(
    "Administer the brand visibility monitor. Uses DATABASE_URL, or the embedded database under DATA_DIR " +
      "(shared with a running server)."
  ),
  Command.withSubcommands([orgs, keys, migrate, importCommand, reanalyze, candidates, backup, restore, collector])
)

export const run = Command.run(root, { name: "bvm", version: packageJson.version })
