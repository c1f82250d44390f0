/**
 * Writes the results of `npm run bench:http` into docs/performance-runs.md (the full tables of the
 * latest runs), between the two markers below; every other line of the file is kept as it is (the file
 * is read again right before it is written). Without the markers, the section is added at the end.
 */
import * as Fs from "node:fs"

export const START = "<!-- bench-http:results:start (written by `npm run bench:http`; edit outside these markers) -->"
export const END = "<!-- bench-http:results:end -->"
export const HEADING = "## HTTP against a raw baseline"

export const writeHttpResults = (file: string, results: string): void => {
  const block = `${START}\n\n${results.trim()}\n\n${END}`
  const current = Fs.existsSync(file) ? Fs.readFileSync(file, "utf8") : "# Performance\n"
  const start = current.indexOf(START)
  const end = current.indexOf(END)
  const next = start !== -1 && end > start
    ? current.slice(0, start) + block + current.slice(end + END.length)
    : `${current.trimEnd()}\n\n${HEADING}\n\n${block}\n`
  Fs.writeFileSync(file, next)
}
