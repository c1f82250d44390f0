/** Writes a synthetic combined-format log (generate.ts) to a file, gzipped or not, with backpressure. */
import { once } from "node:events"
import { createWriteStream } from "node:fs"
import { createGzip } from "node:zlib"
import { generateLines } from "./generate.ts"

export const writeLog = async (file: string, count: number, options: { gzip?: boolean; seed?: number; days?: number } = {}) => {
  const fileStream = createWriteStream(file)
  const gzip = options.gzip ? createGzip() : undefined
  if (gzip !== undefined) gzip.pipe(fileStream)
  const sink = gzip ?? fileStream
  let batch: Array<string> = []
  for (const line of generateLines({ lines: count, seed: options.seed ?? 1, days: options.days ?? 7 })) {
    batch.push(line)
    if (batch.length === 10_000) {
      if (!sink.write(`${batch.join("\n")}\n`)) await once(sink, "drain")
      batch = []
    }
  }
  if (batch.length > 0) sink.write(`${batch.join("\n")}\n`)
  sink.end()
  await once(fileStream, "finish")
}
