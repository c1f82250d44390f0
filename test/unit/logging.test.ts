import { describe, expect, it } from "vitest"
import { reasonOf } from "../../src/Logging.ts"

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
