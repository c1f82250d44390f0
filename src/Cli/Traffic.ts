import { Args, Command, Options } from "@effect/cli"
import { Effect, Option } from "effect"
import { createReadStream } from "node:fs"
import { access } from "node:fs/promises"
import { TrafficRepo } from "../Traffic/Repo.ts"
import { Salt } from "../Traffic/Salt.ts"
import { receive } from "../Traffic/Uploads.ts"
import { WritingRepositoriesLive } from "./Environment.ts"
import { UserError } from "./Errors.ts"
import * as Output from "./Output.ts"

const file = Args.text({ name: "file" }).pipe(Args.withDescription("The log file (plain or gzip), in the source's format."))
const source = Options.integer("source").pipe(Options.withDescription("The traffic source's id."))

/**
 * `traffic import FILE --source ID`: a log read into a traffic source, as `POST /traffic-sources/{id}/uploads`
 * does (the same file twice is counted once), but read before the command returns; prints the upload's report.
 */
const importLog = Command.make("import", { file, source, json: Output.json }, ({ file, json, source }) =>
  Effect.gen(function*() {
    const repo = yield* TrafficRepo
    const found = yield* repo.sourceById(source)
    if (Option.isNone(found)) return yield* new UserError({ message: `Traffic source ${source} not found.` })
    yield* Effect.tryPromise({ try: () => access(file), catch: () => new UserError({ message: `Cannot read ${file}.` }) })
    const begun = yield* receive(found.value, createReadStream(file), { background: false }).pipe(
      Effect.catchTag("LogReadError", (error) => Effect.fail(new UserError({ message: `Cannot read ${file}: ${error.message}` }))),
      Effect.catchTag("NotFound", () => Effect.fail(new UserError({ message: `Traffic source ${source} not found.` })))
    )
    const upload = Option.getOrThrow(yield* repo.findUpload(source, begun.id))
    yield* Output.print(json, upload, (row) =>
      [
        `Upload ${row.id} of source ${row.source_id}: ${row.status}${row.error === null ? "" : ` (${row.error})`}`,
        `lines ${row.lines}, parsed ${row.parsed}, ignored ${row.ignored}, unparsed ${row.unparsed}, other hosts ${row.filtered}`,
        `agent hits ${row.agent_hits}, unknown bot hits ${row.unknown_bot_hits}, AI referral visits ${row.referral_visits}`,
        `first ${Output.timestamp(row.first_time)}, last ${Output.timestamp(row.last_time)}`
      ].join("\n"))
    if (upload.status === "failed") return yield* new UserError({ message: `The log could not be read: ${upload.error ?? ""}` })
  }).pipe(Effect.provide(Salt.layer))).pipe(
    Command.withDescription("Read a log file into a traffic source (as an upload; the same file twice counts once). Prints the upload's report; --json the upload."),
    Command.provide(WritingRepositoriesLive)
  )

export const traffic = Command.make("traffic").pipe(
  Command.withDescription("Agent traffic: read a site's logs into a traffic source."),
  Command.withSubcommands([importLog])
)
