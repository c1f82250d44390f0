/**
 * Where a process's time went, from the `.cpuprofile` V8 writes with `node --cpu-prof`: self time by
 * where the code lives (idle, garbage collection, Node's own modules, each package, the service's src/),
 * and the functions with the most self time.
 */
import * as Fs from "node:fs"

interface ProfileNode {
  readonly id: number
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number }
}

interface Profile {
  /** Microseconds on the system's monotonic clock, as `process.hrtime` reads it. */
  readonly startTime: number
  readonly nodes: ReadonlyArray<ProfileNode>
  readonly samples: ReadonlyArray<number>
  readonly timeDeltas: ReadonlyArray<number>
}

export interface Share {
  readonly name: string
  /** Of the profile's whole time. */
  readonly percent: number
}

/** The package a script belongs to (`effect`, `@effect/platform`), `src/`, or Node's own modules. */
const placeOf = (node: ProfileNode): string => {
  const { functionName, url } = node.callFrame
  if (functionName === "(idle)") return "idle (waiting: database, network)"
  if (functionName === "(garbage collector)") return "garbage collection"
  if (functionName === "(program)") return "V8 itself (compiling, runtime)"
  // Node's bindings that make the write system calls: sockets (HTTP answers, database messages) and files (logs).
  if (url === "" && /^(writev|writeBuffer|write(Utf8|Latin1|Ascii|Ucs2)String|writeString)$/.test(functionName)) {
    return "writes to sockets and files (system calls)"
  }
  if (url === "") return "native built-ins (JSON, crypto, RegExp...)"
  if (url.startsWith("node:")) return "Node.js (http, net, streams, timers)"
  const inPackage = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)
  if (inPackage !== null) return inPackage[1]!
  if (url.includes("/src/")) return "the service's own code (src/)"
  if (url.includes("/scripts/")) return "the baseline's own code (scripts/; V8 counts JSON encoding it inlines here)"
  return url.replace(/^file:\/\//, "")
}

/**
 * The profile's samples between `from` and `to` (`process.hrtime.bigint()` of any process on this
 * machine: both read the same monotonic clock on Linux), so that start-up and shutdown stay out of it.
 */
export const summarizeProfile = (file: string, window: { readonly from: bigint; readonly to: bigint }, top = 12) => {
  const profile = JSON.parse(Fs.readFileSync(file, "utf8")) as Profile
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const places = new Map<string, number>()
  const functions = new Map<string, number>()
  const from = Number(window.from / 1000n)
  const to = Number(window.to / 1000n)
  let at = profile.startTime
  let total = 0
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0
    at += delta
    const node = byId.get(id)
    if (node === undefined || at < from || at > to) return
    total += delta
    const place = placeOf(node)
    places.set(place, (places.get(place) ?? 0) + delta)
    const { functionName, lineNumber, url } = node.callFrame
    const where = url === "" ? "" : ` (${url.replace(/^.*node_modules\//, "").replace(/^file:\/\/.*\/(src|scripts)\//, "$1/")}:${lineNumber + 1})`
    const name = `${functionName || "(anonymous)"}${where}`
    functions.set(name, (functions.get(name) ?? 0) + delta)
  })
  const shares = (map: Map<string, number>): Array<Share> =>
    [...map].map(([name, time]) => ({ name, percent: (100 * time) / Math.max(1, total) })).sort((a, b) => b.percent - a.percent)
  return { seconds: total / 1e6, places: shares(places), functions: shares(functions).slice(0, top) }
}
