import { type ChildProcess, spawn } from "node:child_process"
import { type AddressInfo, createServer } from "node:net"
import { fileURLToPath } from "node:url"

/**
 * The service's processes started as users start them (`node dist/server/main.js`, `.../worker.js`,
 * built by test/support/globalSetup.ts), each with exactly the environment a test gives it, and what
 * they wrote kept for a failure's message.
 */

const root = fileURLToPath(new URL("../..", import.meta.url))

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

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

export interface Proc {
  readonly name: string
  readonly child: ChildProcess
  readonly baseUrl: string
  output: string
  exitCode: number | null | undefined
}

/** Settings of the shell the tests run in that would change what a process does: never passed on. */
const isServiceSetting = (name: string) =>
  ["DATABASE_URL", "REDIS_URL", "REDIS_PREFIX", "DATA_DIR", "PORT", "WORKER", "LOG_LEVEL", "SIMULATED_PLATFORMS", "METRICS", "METRICS_TOKEN"]
    .includes(name) || name.startsWith("OTEL_")

/** The shell's environment less the service's settings: what every process a test starts begins from. */
export const shellEnvironment = (): Record<string, string | undefined> =>
  Object.fromEntries(Object.entries(process.env).filter(([name]) => !isServiceSetting(name)))

/** What a command printed, and how it ended. */
export interface CommandRun {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** Runs a command (npm, node, tsc) in `cwd` to its end, with the shell's environment less the service's settings, plus `env`. */
export const runCommand = (command: string, args: ReadonlyArray<string>, cwd: string, env: Record<string, string> = {}) =>
  new Promise<CommandRun>((resolve) => {
    const child = spawn(command, args, { cwd, env: { ...shellEnvironment(), ...env }, stdio: ["ignore", "pipe", "pipe"] })
    let stdout = ""
    let stderr = ""
    child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()))
    child.once("exit", (code) => resolve({ code, stdout, stderr }))
  })

/** The run of a command that must have exited 0; else a failure with what it printed. */
export const succeeded = (what: string, result: CommandRun) => {
  if (result.code !== 0) throw new Error(`${what} exited with ${result.code}\n${result.stdout}\n${result.stderr}`)
  return result
}

/** The processes of one test file, and how to start, await and stop them. */
export const processGroup = () => {
  const processes: Array<Proc> = []

  /** Everything the processes wrote (the last 6,000 characters each), for a failure's message. */
  const outputs = () => processes.map((p) => `--- ${p.name} (exit ${p.exitCode ?? "running"}):\n${p.output}`).join("\n")

  const launch = async (name: string, script: string, env: Record<string, string>): Promise<Proc> => {
    const port = await freePort()
    const inherited = shellEnvironment()
    const child = spawn(process.execPath, [script], {
      cwd: root,
      env: { ...inherited, PORT: String(port), LOG_LEVEL: "info", ...env },
      stdio: ["ignore", "pipe", "pipe"]
    })
    const proc: Proc = { name, child, baseUrl: `http://127.0.0.1:${port}`, output: "", exitCode: undefined }
    const append = (chunk: Buffer) => (proc.output = (proc.output + chunk.toString("utf8")).slice(-6000))
    child.stdout!.on("data", append)
    child.stderr!.on("data", append)
    child.once("exit", (code) => (proc.exitCode = code))
    processes.push(proc)
    return proc
  }

  /** Until `ready` holds, the process exits (a failure, with everything written so far), or 90 s pass. */
  const until = async (proc: Proc, what: string, ready: () => Promise<boolean>) => {
    const deadline = Date.now() + 90_000
    while (!(await ready())) {
      if (proc.exitCode !== undefined) throw new Error(`${proc.name} exited with ${proc.exitCode} before ${what}\n${outputs()}`)
      if (Date.now() > deadline) throw new Error(`${proc.name}: not ${what} within 90 s\n${outputs()}`)
      await wait(200)
    }
  }

  // Each probe is bounded: a process listens a little before it handles requests, and a request that
  // arrives in between is never answered.
  const serving = (proc: Proc) =>
    until(proc, "serving", () => fetch(`${proc.baseUrl}/ready`, { signal: AbortSignal.timeout(2_000) }).then((r) => r.ok, () => false))
  const collecting = (proc: Proc) => until(proc, "collecting", async () => proc.output.includes("collector started"))

  /** SIGTERM, then SIGKILL if it has not exited after 5 s; its exit code (null when killed). */
  const stop = async (proc: Proc) => {
    if (proc.exitCode === undefined) {
      const exited = new Promise((resolve) => proc.child.once("exit", resolve))
      proc.child.kill("SIGTERM")
      await Promise.race([exited, wait(5_000)])
      if (proc.exitCode === undefined) {
        proc.child.kill("SIGKILL")
        await exited
      }
    }
    return proc.exitCode
  }

  const stopAll = () => Promise.all(processes.map(stop))

  return { launch, outputs, until, serving, collecting, stop, stopAll }
}
