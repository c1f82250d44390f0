/**
 * `npm run bench:traffic [-- --lines 5000000 --file access.log --runs 1]`: lines per second of reading
 * an access log for agent traffic, on a combined-format log of `--lines` lines (made by
 * scripts/traffic/generate.ts into the temporary folder unless `--file` names one; made once and kept).
 *
 * Three stages, each over the whole file, in the same run:
 * - read: the lines alone (the stream, no parsing), the floor;
 * - parse: lines parsed by the combined parser, the baseline;
 * - parse + classify: parsed, matched against the catalogue, verified against the shipped lists,
 *   referrals and visitor hashes, counted into daily rollups (no database).
 * Each reports lines/s by the wall clock and by the CPU time the process used (the latter is what a
 * machine shared with other work can still compare; the best run of `--runs` by CPU is kept), and the
 * live heap at 25 %, 50 %, 75 % and 100 % of the lines (after a full collection) and the peak heap
 * seen between chunks (garbage included), to show that memory does not
 * grow with the lines (it grows with the distinct rows kept, and the caches are bounded). The full upload path (PostgreSQL included), later,
 * targets at least 100,000 lines/s against the parse stage as its baseline.
 *
 * The table is printed (markdown) and written into docs/agent-traffic.md between its
 * `<!-- traffic-bench -->` markers (`--no-docs` skips the file).
 */
import { createReadStream, existsSync, readFileSync, writeFileSync } from "node:fs"
import * as os from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { commandLine } from "./bench/common.ts"
import { parserFor } from "../src/Traffic/Formats/Formats.ts"
import { lineIngestion } from "../src/Traffic/Ingest.ts"
import { lineBatches, TOO_LONG } from "../src/Traffic/LogStream.ts"
import { randomDailySalt } from "../src/Traffic/Salt.ts"
import { writeLog } from "./traffic/write.ts"

const argv = process.argv.slice(2)
if (argv.includes("--help") || argv.includes("-h")) {
  console.log("usage: npm run bench:traffic [-- --lines N (5000000)] [--file FILE] [--runs N (1)] [--no-docs]")
  process.exit(0)
}
const { numberOption, option } = commandLine(argv)
const LINES = numberOption("lines", 5_000_000, 1)
const RUNS = numberOption("runs", 1, 1)
const file = option("file") ?? join(os.tmpdir(), `bvm-traffic-${LINES}.log`)
const WRITE_DOCS = !argv.includes("--no-docs")
const docsFile = fileURLToPath(new URL("../docs/agent-traffic.md", import.meta.url))

if (!existsSync(file)) {
  const started = performance.now()
  process.stdout.write(`writing ${LINES.toLocaleString("en")} lines to ${file} ... `)
  await writeLog(file, LINES)
  console.log(`${((performance.now() - started) / 1000).toFixed(1)} s`)
}

let lastIngestion: ReturnType<typeof lineIngestion> | undefined

interface Stage {
  readonly name: string
  readonly start: () => (line: string | typeof TOO_LONG) => void
}

const stages: ReadonlyArray<Stage> = [
  { name: "read", start: () => () => {} },
  {
    name: "parse",
    start: () => {
      const parser = parserFor("combined")
      return (line) => {
        if (line !== TOO_LONG) parser.parse(line)
      }
    }
  },
  {
    name: "parse + classify",
    start: () => {
      const ingestion = lineIngestion({ format: "combined", siteHosts: [] }, randomDailySalt())
      lastIngestion = ingestion
      return ingestion.add
    }
  }
]

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)}`

/** The heap in use by live objects: after a full collection when node runs with --expose-gc (npm run bench:traffic does). */
const liveHeap = () => {
  ;(globalThis as { gc?: () => void }).gc?.()
  return process.memoryUsage().heapUsed
}

const measure = async (stage: Stage) => {
  const add = stage.start()
  const marks = [0.25, 0.5, 0.75].map((share) => Math.floor(LINES * share))
  const heapAt: Array<number> = []
  let peak = 0
  let count = 0
  const started = performance.now()
  const cpuStarted = process.cpuUsage()
  for await (const batch of lineBatches(createReadStream(file, { highWaterMark: 1024 * 1024 }))) {
    for (const line of batch) {
      add(line)
      count++
      if (count === marks[heapAt.length]) heapAt.push(liveHeap())
    }
    peak = Math.max(peak, process.memoryUsage().heapUsed)
  }
  const seconds = (performance.now() - started) / 1000
  const cpu = process.cpuUsage(cpuStarted)
  const cpuSeconds = (cpu.user + cpu.system) / 1e6
  heapAt.push(liveHeap())
  return { count, seconds, cpuSeconds, linesPerSecond: count / seconds, linesPerCpuSecond: count / cpuSeconds, heapAt, peak: Math.max(peak, ...heapAt) }
}

console.log(`\n${LINES.toLocaleString("en")} combined-format lines, ${RUNS} run(s) per stage, best kept; Node ${process.version}\n`)
const results = []
for (const stage of stages) {
  let best: Awaited<ReturnType<typeof measure>> | undefined
  for (let run = 0; run < RUNS; run++) {
    const result = await measure(stage)
    if (best === undefined || result.linesPerCpuSecond > best.linesPerCpuSecond) best = result
  }
  results.push({ stage: stage.name, ...best! })
}
const baseline = results.find((result) => result.stage === "parse")!.linesPerCpuSecond
const rows = lastIngestion!.result().rollup
const table = [
  "| stage | lines | wall s | CPU s | lines/s (wall) | lines/s (CPU) | vs parse (CPU) | live heap MiB at 25/50/75/100 % | peak heap MiB |",
  "|---|---:|---:|---:|---:|---:|---:|---|---:|",
  ...results.map((result) =>
    `| ${result.stage} | ${result.count.toLocaleString("en")} | ${result.seconds.toFixed(1)} | ${result.cpuSeconds.toFixed(1)} | ${Math.round(result.linesPerSecond).toLocaleString("en")} | ${Math.round(result.linesPerCpuSecond).toLocaleString("en")} | ${(result.linesPerCpuSecond / baseline).toFixed(2)} | ${result.heapAt.map(mib).join(" / ")} | ${mib(result.peak)} |`
  )
]
const summary =
  `Rows kept at the end: ${rows.totals.length} days, ${rows.agentHits.length.toLocaleString("en")} agent rows, ` +
  `${rows.unknownBots.length} unknown-bot rows, ${rows.referrals.length.toLocaleString("en")} referral rows. ` +
  `Measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus().length} cores (load average ${os.loadavg()[0]!.toFixed(1)} at the end), Node ${process.version}.`
console.log(table.join("\n"))
console.log(`\n${summary}`)

if (WRITE_DOCS) {
  const text = readFileSync(docsFile, "utf8")
  const start = "<!-- traffic-bench -->"
  const end = "<!-- /traffic-bench -->"
  const from = text.indexOf(start)
  const to = text.indexOf(end)
  if (from === -1 || to === -1) {
    console.error(`${docsFile} has no ${start} ... ${end} markers; not written`)
  } else {
    writeFileSync(docsFile, `${text.slice(0, from + start.length)}\n${table.join("\n")}\n\n${summary}\n${text.slice(to)}`)
    console.log(`written into ${docsFile}`)
  }
}
