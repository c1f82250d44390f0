import { Args, Command, Options } from "@effect/cli"
import { FileSystem } from "@effect/platform"
import type { PlatformError } from "@effect/platform/Error"
import { Chunk, Clock, Effect, Either, Layer, ParseResult, Schema, Sink, Stream } from "effect"
import type { FieldErrors } from "../Domain/Errors.ts"
import { fieldErrors } from "../Domain/Errors.ts"
import { MonitorsRepo } from "../Monitors/Repo.ts"
import { ProjectsRepo } from "../Projects/Repo.ts"
import { PromptsRepo } from "../Prompts/Repo.ts"
import { Analyzer } from "../Responses/Analyzer.ts"
import { CreateResponse } from "../Responses/Api.ts"
import { Ingestion } from "../Responses/Ingestion.ts"
import { type AnalyzedResponse, type BrandForDetection, ResponsesRepo } from "../Responses/Repo.ts"
import type { SuggestionsRepo } from "../Suggestions/Repo.ts"
import * as PlannerStatistics from "../Database/PlannerStatistics.ts"
import { WritingRepositoriesAndSqlLive } from "./Environment.ts"
import { LinesRefused, UserError } from "./Errors.ts"
import * as Input from "./Input.ts"
import { type FileLine, MAX_LINE_BYTES, splitLines } from "./Lines.ts"
import * as Output from "./Output.ts"

/**
 * `import FILE --project ID`: responses in bulk, one JSON object a line with the fields of POST /responses
 * (backfills, migrations from other tools). The file is streamed, never read whole; each batch of lines
 * is checked as the API checks a response, analyzed, and stored in one transaction. A bad line (a line
 * too long or not UTF-8 included, src/Cli/Lines.ts) is reported with its number and skipped; the others
 * all land, and the command then exits with 2.
 */

// ---------------------------------------------------------------------------------------------------
// Options shared with `reanalyze`

export const DEFAULT_BATCH_SIZE = 500
/** Far above what helps throughput; a batch is held in memory whole. */
export const MAX_BATCH_SIZE = 10_000
/** A batch also ends once its lines hold this many characters, so that long lines keep memory bounded. */
export const MAX_BATCH_CHARACTERS = 16 * 1024 * 1024

export const checkBatchSize = (size: number): Either.Either<number, string> =>
  Number.isInteger(size) && size >= 1 && size <= MAX_BATCH_SIZE
    ? Either.right(size)
    : Either.left(`--batch-size must be a whole number from 1 to ${MAX_BATCH_SIZE}, not ${size}.`)

export const batchSize = (what: string) =>
  Options.integer("batch-size").pipe(
    Options.mapEffect(Input.validated(checkBatchSize)),
    Options.withPseudoName("N"),
    Options.withDescription(`${what} per batch, each stored in one transaction (default ${DEFAULT_BATCH_SIZE}).`),
    Options.withDefault(DEFAULT_BATCH_SIZE)
  )

export const projectOption = Options.integer("project").pipe(
  Options.mapEffect(Input.validated(Input.checkId("--project"))),
  Options.withPseudoName("ID"),
  Options.withDescription("The id of the project.")
)

/** The project, or a clear error. */
export const findProject = (id: number) =>
  Effect.flatMap(ProjectsRepo, (repo) => repo.findMany([id])).pipe(
    Effect.flatMap(([project]) =>
      project === undefined ? new UserError({ message: `Project ${id} not found.` }) : Effect.succeed(project)
    )
  )

// ---------------------------------------------------------------------------------------------------
// Progress and numbers

/** `12500` → `12,500`. */
export const count = (n: number): string => n.toLocaleString("en-US")

/** Per second, from a count and milliseconds (the count itself for an instant run). */
export const perSecond = (n: number, ms: number): number => (ms <= 0 ? n : Math.round((n * 1000) / ms))

/**
 * A progress line on stderr. On a terminal it is rewritten in place (`\r`) at most ten times a second;
 * elsewhere (a log file, a pipe) it is a plain line at most once a second. Lines that must stay (a
 * skipped line's error) clear it first; `clear` removes it before the summary.
 */
export const progressLine = (stream: NodeJS.WriteStream = process.stderr) => {
  const tty = stream.isTTY === true
  const every = tty ? 100 : 1000
  let last = Date.now()
  let shown = false
  const CLEAR = "\r\x1b[2K"
  return {
    update: (text: () => string) =>
      Effect.sync(() => {
        const now = Date.now()
        if (now - last < every) return
        last = now
        if (tty) {
          stream.write(`${CLEAR}${text()}`)
          shown = true
        } else {
          stream.write(`${text()}\n`)
        }
      }),
    line: (text: string) =>
      Effect.sync(() => {
        stream.write(`${shown ? CLEAR : ""}${text}\n`)
        shown = false
      }),
    clear: Effect.sync(() => {
      if (shown) stream.write(CLEAR)
      shown = false
    })
  }
}

// ---------------------------------------------------------------------------------------------------
// One line → one response: pure

/** A line's fields, as POST /responses decodes them. */
export type ResponseLine = typeof CreateResponse.Type

export interface LineError {
  readonly line: number
  readonly reason: string
}

/** `prompt_id: The selected prompt id is invalid.`: a 422's field errors, as one line. */
export const describeErrors = (errors: FieldErrors): string =>
  Object.entries(errors).map(([field, messages]) => `${field}: ${messages.join(" ")}`).join(" ")

const decodeResponse = Schema.decodeUnknownEither(CreateResponse)

/** A line of the file decoded as the body of POST /responses, or the reason it is not one. */
export const decodeLine = (text: string): Either.Either<ResponseLine, string> => {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return Either.left("The line is not valid JSON.")
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return Either.left("The line must be a JSON object.")
  return Either.mapLeft(decodeResponse(value), (error) => describeErrors(fieldErrors(ParseResult.ArrayFormatter.formatErrorSync(error))))
}

// ---------------------------------------------------------------------------------------------------
// Batches: lookups per batch, one transaction per batch

export interface BatchResult {
  /** Lines of the batch, blank ones included. */
  readonly read: number
  readonly imported: number
  /** The batch's bad lines, by line number. */
  readonly errors: ReadonlyArray<LineError>
}

/** A batch checked and analyzed, not stored yet. */
export interface PreparedBatch {
  readonly read: number
  readonly responses: ReadonlyArray<AnalyzedResponse>
  /** By line number. */
  readonly errors: ReadonlyArray<LineError>
}

/**
 * One batch of numbered lines (1-based) decoded, its prompts and their monitors looked up in one go, and
 * its lines checked and analyzed. Blank lines are passed over.
 */
export const prepareBatch = (
  projectId: number,
  brands: ReadonlyArray<BrandForDetection>,
  lines: ReadonlyArray<readonly [text: FileLine, line: number]>
): Effect.Effect<PreparedBatch, never, Ingestion> =>
  Effect.gen(function*() {
    const decoded: Array<{ readonly line: number; readonly value: ResponseLine }> = []
    const errors: Array<LineError> = []
    for (const [text, line] of lines) {
      if (typeof text !== "string") {
        errors.push({ line, reason: text.reason })
        continue
      }
      // A byte order mark is no part of the first object.
      const content = line === 1 ? text.replace(/^\uFEFF/, "") : text
      if (content.trim() === "") continue
      Either.match(decodeLine(content), {
        onLeft: (reason) => errors.push({ line, reason }),
        onRight: (value) => decoded.push({ line, value })
      })
    }
    // Checked and analyzed as POST /responses does (Responses/Ingestion.ts).
    const analyzed = yield* (yield* Ingestion).prepare(projectId, decoded.map(({ value }) => value), brands)
    const responses: Array<AnalyzedResponse> = []
    decoded.forEach(({ line }, i) => {
      Either.match(analyzed[i]!, {
        onLeft: (fields) => errors.push({ line, reason: describeErrors(fields) }),
        onRight: (response) => responses.push(response)
      })
    })
    return { read: lines.length, responses, errors: errors.sort((a, b) => a.line - b.line) }
  })

/** A prepared batch's responses stored, in one transaction. */
export const storeBatch = (
  projectId: number,
  batch: PreparedBatch
): Effect.Effect<BatchResult, UserError, Ingestion> =>
  Effect.gen(function*() {
    if (batch.responses.length > 0) {
      yield* (yield* Ingestion).store(projectId, batch.responses).pipe(
        Effect.catchTag("NotFound", (gone) =>
          new UserError({
            message: gone.resource === "Project"
              ? `Project ${projectId} was deleted during the import.`
              : `A prompt (or its monitor) of this batch was deleted during the import; the batch was not stored.`
          }))
      )
    }
    return { read: batch.read, imported: batch.responses.length, errors: batch.errors }
  })

/** How many errors the summary lists (stderr gets them all). */
export const MAX_LISTED_ERRORS = 100

export interface ImportTotals {
  readonly read: number
  readonly imported: number
  readonly skipped: number
  /** The first `MAX_LISTED_ERRORS`. */
  readonly errors: ReadonlyArray<LineError>
}

/** Numbered lines, up to `size` of them or until they hold `MAX_BATCH_CHARACTERS`. */
const batchOf = (size: number) =>
  Sink.fold(
    { lines: Chunk.empty<readonly [FileLine, number]>(), characters: 0 },
    (batch) => Chunk.size(batch.lines) < size && batch.characters < MAX_BATCH_CHARACTERS,
    (batch, [text, index]: readonly [FileLine, number]) => ({
      lines: Chunk.append(batch.lines, [text, index + 1] as const),
      characters: batch.characters + (typeof text === "string" ? text.length : 0)
    })
  )

/**
 * Imports a stream of lines into the project, `batchSize` lines a batch (fewer when they are long), and
 * tells `onBatch` after each (the batch's result and the totals so far). The project's brands are read
 * once.
 */
export const importLines = <E, R>(
  projectId: number,
  lines: Stream.Stream<FileLine, E, R>,
  options: {
    readonly batchSize: number
    readonly onBatch?: (batch: BatchResult, totals: ImportTotals) => Effect.Effect<void>
  }
): Effect.Effect<ImportTotals, E | UserError, R | PromptsRepo | MonitorsRepo | ResponsesRepo | SuggestionsRepo | Analyzer> =>
  Effect.gen(function*() {
    const brands = yield* (yield* ResponsesRepo).brandsForDetection(projectId)
    const start: ImportTotals = { read: 0, imported: 0, skipped: 0, errors: [] }
    return yield* lines.pipe(
      Stream.zipWithIndex,
      Stream.transduce(batchOf(options.batchSize)),
      Stream.filter((batch) => Chunk.isNonEmpty(batch.lines)),
      Stream.mapEffect((batch) => prepareBatch(projectId, brands, Chunk.toReadonlyArray(batch.lines))),
      Stream.runFoldEffect(start, (totals, prepared) =>
        Effect.gen(function*() {
          const batch = yield* storeBatch(projectId, prepared)
          const next: ImportTotals = {
            read: totals.read + batch.read,
            imported: totals.imported + batch.imported,
            skipped: totals.skipped + batch.errors.length,
            errors: totals.errors.length >= MAX_LISTED_ERRORS
              ? totals.errors
              : [...totals.errors, ...batch.errors].slice(0, MAX_LISTED_ERRORS)
          }
          if (options.onBatch) yield* options.onBatch(batch, next)
          return next
        }))
    ).pipe(Effect.provide(Ingestion.layer))
  })

// ---------------------------------------------------------------------------------------------------
// The command

const readFailure = (file: string, error: PlatformError) =>
  new UserError({
    message: `Cannot read ${file}: ${
      error._tag === "SystemError" && error.reason === "NotFound"
        ? "no such file."
        : error._tag === "SystemError" && error.reason === "PermissionDenied"
        ? "permission denied."
        : error.message
    }`
  })

/** The file's lines, streamed (64 KiB at a time), each at most `MAX_LINE_BYTES` of UTF-8. */
const fileLines = (file: string) =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const info = yield* fs.stat(file).pipe(Effect.mapError((error) => readFailure(file, error)))
    if (info.type !== "File") return yield* new UserError({ message: `Cannot read ${file}: not a file.` })
    return fs.stream(file).pipe(
      Stream.mapError((error) => readFailure(file, error)),
      splitLines(MAX_LINE_BYTES)
    )
  })

export const importCommand = Command.make("import", {
  file: Args.file({ name: "file" }).pipe(
    Args.withDescription("An NDJSON file: one JSON object a line, with the fields of POST /api/v1/responses.")
  ),
  projectId: projectOption,
  batchSize: batchSize("Lines"),
  json: Output.json
}, (input) =>
  Effect.gen(function*() {
    const project = yield* findProject(input.projectId)
    const lines = yield* fileLines(input.file)
    const started = yield* Clock.currentTimeMillis
    const progress = progressLine()
    // What is stored for good, to say where to resume should the import stop half-way.
    let stored = { read: 0, imported: 0 }
    // The answers are stored pending, as POST /responses stores them: the server's background merger
    // folds them into the analytics rollups (src/Analytics/Merger.ts), and analytics count them exactly
    // in the meantime.
    const totals = yield* importLines(project.id, lines, {
      batchSize: input.batchSize,
      onBatch: (batch, totals) =>
        Effect.gen(function*() {
          stored = totals
          for (const error of batch.errors) yield* progress.line(`line ${error.line}: ${error.reason}`)
          const elapsed = (yield* Clock.currentTimeMillis) - started
          yield* progress.update(() =>
            `imported ${count(totals.read)} lines (${count(totals.skipped)} skipped), ${count(perSecond(totals.read, elapsed))} lines/s`
          )
        })
    }).pipe(Effect.tapErrorCause(() =>
      stored.read === 0 ? progress.clear : progress.line(
        `Stopped after line ${stored.read}: the lines up to it are done (${count(stored.imported)} imported), ` +
          `the lines after it were not imported.`
      )
    ))
    yield* progress.clear
    // A bulk load changes the tables' sizes: the planner's statistics follow at once
    // (src/Database/PlannerStatistics.ts), so that the first analytics after it are planned on them.
    if (totals.imported > 0) yield* PlannerStatistics.analyzeAll
    const ms = (yield* Clock.currentTimeMillis) - started
    const summary = { ...totals, seconds: Math.round(ms) / 1000 }
    yield* Output.print(input.json, summary, (s) =>
      `Read ${count(s.read)} lines in ${s.seconds.toFixed(2)} s (${count(perSecond(s.read, ms))} lines/s): ` +
      `${count(s.imported)} imported, ${count(s.skipped)} skipped.`)
    // A script must not take a partly refused file for a good one.
    if (totals.skipped > 0) {
      return yield* new LinesRefused({
        message: `${count(totals.skipped)} of ${count(totals.read)} lines were refused (see above); ` +
          `the other ${count(totals.imported)} were imported.`
      })
    }
  })).pipe(
    Command.withDescription(
      "Import responses from an NDJSON file into a project, in batches (each one transaction), analyzed as " +
        "POST /responses does. Bad lines (invalid, not UTF-8, or longer than " + `${MAX_LINE_BYTES}` + " bytes) are " +
        "reported on stderr (\"line N: reason\") and skipped; the command then exits with 2 after its summary. With --json " +
        "{\"read\",\"imported\",\"skipped\",\"errors\":[{\"line\",\"reason\"}] (the first 100),\"seconds\"}."
    ),
    Command.provide(Layer.merge(WritingRepositoriesAndSqlLive, Analyzer.threads()))
  )
