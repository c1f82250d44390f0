import { Options } from "@effect/cli"
import { Console, Effect } from "effect"

/**
 * What a command prints on stdout. Stdout carries only the command's result (logs and errors go to
 * stderr), so that `--json` output can be piped straight into `jq`.
 */

/** `--json`, accepted by every command. */
export const json = Options.boolean("json").pipe(
  Options.withDescription("Print the result as one line of JSON on stdout, and nothing else.")
)

/** Prints `value` as one JSON line with `--json`, else the human text `plain` makes of it. */
export const print = <A>(asJson: boolean, value: A, plain: (value: A) => string): Effect.Effect<void> =>
  Console.log(asJson ? JSON.stringify(value) : plain(value))

/** Dates as the API shows them (ISO 8601 UTC); a dash for none. */
export const timestamp = (date: Date | null): string => (date === null ? "-" : date.toISOString())

/** A plain-text table: left-aligned columns separated by two spaces, a header row first. */
export const table = (headers: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string>>): string => {
  const widths = headers.map((header, i) => Math.max(header.length, ...rows.map((row) => (row[i] ?? "").length)))
  const line = (cells: ReadonlyArray<string>) =>
    cells.map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i]!))).join("  ")
  return [line(headers), ...rows.map(line)].join("\n")
}
