import { Cause, FiberId, FiberRefs, HashMap, List, Logger, LogLevel, LogSpan } from "effect"
import { describe, expect, it } from "vitest"
import { jsonLogger, reasonOf } from "../../src/Logging.ts"

/** A failed start is one sentence that says what to do, never an empty reason. */
describe("the reason of a failed start", () => {
  it("names the port already in use and the fix", () => {
    const listen = Object.assign(new Error("listen EADDRINUSE: address already in use :::3000"), { code: "EADDRINUSE", port: 3000 })
    const serveError = Object.assign(new Error(""), { cause: listen })
    expect(reasonOf(serveError)).toBe("port 3000 is already in use: stop the process holding it, or set PORT to another port")
  })

  it("falls back to the cause's message when the error has none", () => {
    expect(reasonOf(Object.assign(new Error(""), { cause: new Error("permission denied") }))).toBe("permission denied")
    expect(reasonOf(new Error("DATABASE_URL is not a URL"))).toBe("DATABASE_URL is not a URL")
    expect(reasonOf("plain")).toBe("plain")
  })
})

/** The access log's fast path writes exactly what Effect's JSON logger writes, and falls back for the rest. */
describe("the JSON log line", () => {
  const options = (message: unknown, annotations: ReadonlyArray<readonly [string, unknown]>, cause = Cause.empty as Cause.Cause<unknown>) => ({
    fiberId: FiberId.runtime(42, 0),
    logLevel: LogLevel.Info,
    message,
    cause,
    context: FiberRefs.empty(),
    spans: List.make(LogSpan.make("request", 1_000)),
    annotations: HashMap.fromIterable(annotations),
    date: new Date(1_500)
  })

  it.each([
    ["a request line", options("request", [["method", "GET"], ["path", "/api/v1/tags"], ["status", 200], ["duration_ms", 3], ["request_id", "r-1"]])],
    ["several messages, null and booleans", options(["one", 2, true, null], [["flag", false], ["none", null]])],
    ["text to escape", options("quote \" and \\ and \n and é", [["odd key \"", "tab\t"]])],
    ["an object annotation (the general path)", options("event", [["detail", { nested: [1, 2] }]])],
    ["an error message (the general path)", options(new Error("boom"), [])],
    ["a cause (the general path)", options("failed", [], Cause.fail("reason"))]
  ])("%s", (_, given) => {
    expect(jsonLogger.log(given)).toBe(Logger.jsonLogger.log(given))
  })
})
