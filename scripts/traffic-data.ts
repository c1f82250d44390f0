/**
 * `npm run traffic:data -- --lines 5000000 --out access.log [--gzip] [--seed 1] [--days 7]`: writes a
 * synthetic access log in the combined format (scripts/traffic/generate.ts: people, a few of them
 * referred by AI platforms, catalogue agents from their published ranges, spoofed agents, agents whose
 * operators publish nothing, other bots), for the traffic benchmark or a manual import. `--lines`
 * accepts fractions of millions as `2.5m`.
 */
import { commandLine } from "./bench/common.ts"
import { writeLog } from "./traffic/write.ts"

const argv = process.argv.slice(2)
if (argv.includes("--help") || argv.includes("-h")) {
  console.log("usage: npm run traffic:data -- --lines N (or 5m) --out FILE [--gzip] [--seed N (1)] [--days N (7)]")
  process.exit(0)
}
const { numberOption, option } = commandLine(argv)
const linesOption = option("lines") ?? "1m"
const lines = /^\d+(\.\d+)?m$/i.test(linesOption) ? Math.round(Number(linesOption.slice(0, -1)) * 1e6) : Number(linesOption)
if (!Number.isInteger(lines) || lines < 1) {
  console.error("--lines needs a whole number of lines (or millions, as 5m)")
  process.exit(2)
}
const out = option("out")
if (out === undefined) {
  console.error("--out FILE is required")
  process.exit(2)
}

const started = performance.now()
await writeLog(out, lines, { gzip: argv.includes("--gzip"), seed: numberOption("seed", 1, 0), days: numberOption("days", 7, 1) })
console.log(`${lines.toLocaleString("en")} lines written to ${out} in ${((performance.now() - started) / 1000).toFixed(1)} s`)
