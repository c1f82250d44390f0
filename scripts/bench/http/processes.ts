/**
 * The server processes of `npm run bench:http`: each a child process of its own, so that its memory is
 * its own, started on a free loopback port, waited for, and stopped (SIGTERM, then SIGKILL).
 */
import { type ChildProcess, spawn } from "node:child_process"
import * as Fs from "node:fs"
import { createServer, type AddressInfo } from "node:net"

export interface ServerProcess {
  readonly name: string
  readonly pid: number
  readonly baseUrl: string
  /** The last lines it wrote (stdout and stderr), for error messages. */
  readonly output: () => string
  readonly stop: () => Promise<void>
}

/** A loopback port the system reports free. */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo
      server.close(() => resolve(port))
    })
  })

const running = new Set<ChildProcess>()

/** Every child still running is killed when this process ends, however it ends. */
process.on("exit", () => {
  for (const child of running) child.kill("SIGKILL")
})

/**
 * Starts `node <script>` (through tsx when it is TypeScript) in `cwd` with `env` and PORT set, and
 * waits until `readyPath` answers 200. The last few thousand characters it wrote are kept for error
 * messages.
 */
export const startNode = async (options: {
  readonly name: string
  readonly cwd: string
  readonly script: string
  readonly env: NodeJS.ProcessEnv
  readonly readyPath: string
  readonly nodeArgs?: ReadonlyArray<string>
  readonly timeoutMs?: number
}): Promise<ServerProcess> => {
  const port = await freePort()
  const loader = options.script.endsWith(".ts") ? ["--import", "tsx"] : []
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), ...loader, options.script], {
    cwd: options.cwd,
    env: { ...options.env, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"]
  })
  running.add(child)
  // Only the last lines are kept (the service logs there, the access log included).
  let tail = ""
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString("utf8")).slice(-4000)
  }
  child.stdout!.on("data", keep)
  child.stderr!.on("data", keep)
  let exited: number | null | undefined
  let stopping = false
  const exit = new Promise<void>((resolve) =>
    child.once("exit", (code, signal) => {
      exited = code
      running.delete(child)
      // A server that ends before it is told to spoils the run: say so at once, with its last words.
      if (!stopping) console.error(`${options.name} (pid ${child.pid}) ended by itself (exit ${code}, signal ${signal}):\n${tail}`)
      resolve()
    })
  )
  const baseUrl = `http://127.0.0.1:${port}`
  const deadline = Date.now() + (options.timeoutMs ?? 300_000)
  let last = "no answer"
  // Each probe is bounded: the service listens a little before it handles requests, and a request that
  // arrives in between is never answered.
  const ready = () =>
    fetch(`${baseUrl}${options.readyPath}`, { signal: AbortSignal.timeout(2_000) }).then(
      (reply) => {
        last = `${reply.status}`
        return reply.ok
      },
      (error: Error) => {
        last = error.message
        return false
      }
    )
  while (!(await ready())) {
    if (exited !== undefined) throw new Error(`${options.name} exited with ${exited} before it was ready:\n${tail}`)
    if (Date.now() > deadline) {
      stopping = true
      child.kill("SIGKILL")
      throw new Error(`${options.name} was not ready within ${(options.timeoutMs ?? 300_000) / 1000} s (${options.readyPath}: ${last}):\n${tail}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  return {
    name: options.name,
    pid: child.pid!,
    baseUrl,
    output: () => tail,
    stop: async () => {
      if (exited !== undefined) return
      stopping = true
      child.kill("SIGTERM")
      const timer = setTimeout(() => child.kill("SIGKILL"), 15_000)
      await exit
      clearTimeout(timer)
    }
  }
}

export interface Memory {
  /** Resident set size now, MiB. */
  readonly rssMiB: number
  /** The highest resident set size so far, MiB. */
  readonly peakMiB: number
}

/** The memory of a process, from /proc (Linux). */
export const memoryOf = (server: ServerProcess): Memory => {
  let status: string
  try {
    status = Fs.readFileSync(`/proc/${server.pid}/status`, "utf8")
  } catch {
    throw new Error(`${server.name} (pid ${server.pid}) is gone: its memory cannot be read`)
  }
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? Number.NaN)
  return { rssMiB: kib("VmRSS") / 1024, peakMiB: kib("VmHWM") / 1024 }
}
