import { Data, Effect } from "effect"
import { type Agent, catalogue } from "./Agent.ts"
import { classifier } from "./Classify.ts"
import { type LogFormat, parserFor } from "./Formats/Formats.ts"
import type { FieldMap } from "./Formats/Ndjson.ts"
import { type ListIndex, listIndex, shippedSnapshots } from "./IpLists.ts"
import { lineBatches, TOO_LONG } from "./LogStream.ts"
import { userAgentMatcher } from "./Match.ts"
import { type Rollup, rollupAccumulator } from "./Rollup.ts"
import { Salt, type SaltSource } from "./Salt.ts"
import { verifier } from "./Verify.ts"

/**
 * Reading one log into its report and rollups (docs/agent-traffic.md): each line parsed, classified
 * and counted, one at a time. Nothing of a line is kept once it is counted.
 */

export interface IngestOptions {
  readonly format: LogFormat
  /** How an `ndjson` log names its fields (and an `auto` one that turns out to be plain NDJSON). */
  readonly fieldMap?: FieldMap
  /** The hosts counted; empty counts every host. */
  readonly siteHosts: ReadonlyArray<string>
  /** The catalogue's agents unless given. */
  readonly agents?: ReadonlyArray<Agent>
  /** The shipped snapshots' lists unless given. */
  readonly lists?: ListIndex
}

/** What a log held, line by line. */
export interface IngestReport {
  /** Every line read, blank ones included. */
  readonly lines: number
  /** Requests read. */
  readonly parsed: number
  /** Lines that are not requests: headers, comments, blank lines, a drain's build logs. */
  readonly ignored: number
  /** Lines that could not be read (a cut last line among them): counted, never fatal. */
  readonly unparsed: number
  /** Requests for hosts other than the site's. */
  readonly filtered: number
  /** Requests from this service itself. */
  readonly own: number
  readonly agentHits: number
  readonly unknownBotHits: number
  readonly referralVisits: number
  /** The first and last request times (ISO 8601), null when there is no request. */
  readonly firstTime: string | null
  readonly lastTime: string | null
}

export interface Ingested {
  readonly report: IngestReport
  readonly rollup: Rollup
}

let shippedLists: ListIndex | undefined
const defaultLists = (): ListIndex => (shippedLists ??= listIndex(shippedSnapshots))

/** The line-by-line core, without I/O: `add` each line, then read the `result`. */
export const lineIngestion = (options: IngestOptions, salt: SaltSource) => {
  const parser = parserFor(options.format, options.fieldMap)
  const classify = classifier({
    siteHosts: options.siteHosts,
    match: userAgentMatcher(options.agents ?? catalogue.agents),
    verify: verifier(options.lists ?? defaultLists()),
    salt
  }).classify
  const accumulator = rollupAccumulator()
  const counts = { lines: 0, parsed: 0, ignored: 0, unparsed: 0, filtered: 0, own: 0, agentHits: 0, unknownBotHits: 0, referralVisits: 0 }
  let first = Number.POSITIVE_INFINITY
  let last = Number.NEGATIVE_INFINITY
  return {
    add: (raw: string | typeof TOO_LONG): void => {
      counts.lines++
      const line = raw === TOO_LONG ? undefined : parser.parse(raw)
      if (line === undefined) {
        counts.unparsed++
        return
      }
      if (line === "skip") {
        counts.ignored++
        return
      }
      counts.parsed++
      if (line.time < first) first = line.time
      if (line.time > last) last = line.time
      const event = classify(line)
      switch (event.kind) {
        case "filtered":
          counts.filtered++
          return
        case "own":
          counts.own++
          return
        case "agent":
          counts.agentHits++
          break
        case "unknown_bot":
          counts.unknownBotHits++
          break
        case "referral":
          counts.referralVisits++
          break
      }
      accumulator.add(event)
    },
    result: (): Ingested => ({
      report: {
        ...counts,
        firstTime: counts.parsed === 0 ? null : new Date(first).toISOString(),
        lastTime: counts.parsed === 0 ? null : new Date(last).toISOString()
      },
      rollup: accumulator.rollup()
    })
  }
}

/** The log could not be read at all (an I/O error, a gzip stream that is corrupt rather than cut). */
export class LogReadError extends Data.TaggedError("LogReadError")<{ readonly message: string }> {}

/** Reads a whole log (gzip or not) from a stream of bytes. */
export const ingestLog = (input: AsyncIterable<Uint8Array>, options: IngestOptions): Effect.Effect<Ingested, LogReadError, Salt> =>
  Effect.gen(function*() {
    const ingestion = lineIngestion(options, yield* Salt)
    yield* Effect.tryPromise({
      try: async () => {
        for await (const batch of lineBatches(input)) {
          for (const line of batch) ingestion.add(line)
        }
      },
      catch: (error) => new LogReadError({ message: error instanceof Error ? error.message : String(error) })
    })
    return ingestion.result()
  })
