/**
 * Writes the results of `npm run bench` into docs/performance-runs.md (the full tables of the latest
 * runs): only the text between the two markers below is replaced; every other line of the file (the
 * other benchmarks' blocks, the hand-written parts) is kept as it is. The file is read again right
 * before it is written. Without the markers, the results go at the end of a "Benchmarks" section.
 */
import * as Fs from "node:fs"
import * as Path from "node:path"

export const START = "<!-- bench:results:start (written by `npm run bench`; edit outside these markers) -->"
export const END = "<!-- bench:results:end -->"

export const writeResults = (file: string, results: string): void => {
  const block = `${START}\n\n${results.trim()}\n\n${END}`
  const current = Fs.existsSync(file) ? Fs.readFileSync(file, "utf8") : "# Performance\n"
  const start = current.indexOf(START)
  const end = current.indexOf(END)
  let next: string
  if (start !== -1 && end > start) {
    next = current.slice(0, start) + block + current.slice(end + END.length)
  } else if (/^## Benchmarks\s*$/m.test(current)) {
    // The section exists without markers: the results go at its end (before the next `## ` heading).
    const heading = current.search(/^## Benchmarks\s*$/m)
    const after = current.slice(heading + 1).search(/^## /m)
    const at = after === -1 ? current.length : heading + 1 + after
    next = `${current.slice(0, at).trimEnd()}\n\n${block}\n\n${current.slice(at)}`.trimEnd() + "\n"
  } else {
    next = `${current.trimEnd()}\n\n## Benchmarks\n\n${block}\n`
  }
  Fs.mkdirSync(Path.dirname(file), { recursive: true })
  Fs.writeFileSync(file, next)
}
