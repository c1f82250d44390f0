import * as Net from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startServer, type TestServer } from "../support/TestServer.ts"

/**
 * What a connection costs the server however slowly or however much a client sends (docs/security.md,
 * "Time" and "Input"): a request must arrive whole within REQUEST_TIMEOUT_SECONDS (here 1 s, so that
 * the deadline, not a minute of clock, is what is tested), and an answer given before the request's
 * body has all arrived closes the connection instead of reading the rest of the body. Both were
 * defects: a dripped request got its 408 at 70 s for a 60 s timeout (Node looked for late requests
 * every 30 s), and 100 MB sent to /health were all read (6 s) to keep the connection.
 */

const TIMEOUT_SECONDS = 1

interface Exchange {
  /** The raw response head and body received so far. */
  readonly received: () => string
  /** Resolves when the server closes the connection, with the milliseconds since it was opened. */
  readonly closed: Promise<number>
  readonly write: (data: string | Buffer) => boolean
  readonly destroy: () => void
}

/** A raw connection, to send what `fetch` never would: a request that trickles, a body left unsent. */
const connect = (baseUrl: string): Promise<Exchange> =>
  new Promise((resolve, reject) => {
    const { hostname, port } = new URL(baseUrl)
    const socket = Net.connect({ host: hostname, port: Number(port) })
    const opened = performance.now()
    let received = ""
    socket.setEncoding("utf8")
    socket.on("data", (chunk) => (received += chunk))
    // Writes after the server closed fail; the test reads what it answered.
    socket.on("error", () => {})
    const closed = new Promise<number>((done) => socket.once("close", () => done(performance.now() - opened)))
    socket.once("connect", () =>
      resolve({ received: () => received, closed, write: (data) => socket.write(data), destroy: () => socket.destroy() }))
    socket.once("error", reject)
  })

const statusOf = (raw: string) => Number(raw.split("\r\n")[0]?.split(" ")[1])
const headerOf = (raw: string, name: string) =>
  raw.split("\r\n\r\n")[0]!.split("\r\n").find((line) => line.toLowerCase().startsWith(`${name}:`))?.slice(name.length + 1).trim()
const bodyOf = (raw: string) => raw.split("\r\n\r\n").slice(1).join("\r\n\r\n")

/** Writes `data` every `ms` until the connection closes; returns a function that stops it. */
const drip = (exchange: Exchange, data: string, ms: number) => {
  const timer = setInterval(() => exchange.write(data), ms)
  void exchange.closed.then(() => clearInterval(timer))
  return () => clearInterval(timer)
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe("connections", () => {
  let server: TestServer
  let key: string
  let project: number

  beforeAll(async () => {
    server = await startServer("memory", { requestTimeoutSeconds: TIMEOUT_SECONDS })
    const organization = await server.createOrganization()
    key = (await server.createKey(organization.id, ["*"])).key
    project = (await server.request("POST", "/api/v1/projects", { key, body: { name: "Connections" } })).body.data.id
  })
  afterAll(() => server.close())

  describe("a request that does not arrive whole within REQUEST_TIMEOUT_SECONDS", () => {
    // Node looks for late requests every quarter second here (src/Http/NodeServer.ts): the 408 comes
    // after the timeout and well within a second more (the margin is for a busy machine), whereas
    // Node's default check (every 30 s) answered a 1 s timeout after up to 30 s.
    const expectTimedOut = async (exchange: Exchange) => {
      const elapsed = await exchange.closed
      expect(statusOf(exchange.received())).toBe(408)
      expect(JSON.parse(bodyOf(exchange.received()))).toEqual({ message: "Request Timeout" })
      expect(headerOf(exchange.received(), "connection")).toBe("close")
      expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT_SECONDS * 1000 - 50)
      expect(elapsed).toBeLessThan(TIMEOUT_SECONDS * 1000 + 1500)
    }

    it("gets its 408 on time when its headers trickle in", async () => {
      const exchange = await connect(server.baseUrl)
      exchange.write("GET /health HTTP/1.1\r\nHost: x\r\n")
      drip(exchange, "X-Drip: a\r\n", 100)
      await expectTimedOut(exchange)
    })

    it("gets its 408 on time when its body trickles in, though its headers came at once", async () => {
      const exchange = await connect(server.baseUrl)
      exchange.write(
        `POST /api/v1/tags HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nService-Project-Id: ${project}\r\n` +
          "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"
      )
      drip(exchange, " ", 100)
      await expectTimedOut(exchange)
    })
  })

  describe("a body the answer did not need", () => {
    /** Sends a request announcing `length` bytes of body but only `sent` of them, and waits for the server to close. */
    const answeredEarly = async (head: string, length: number, sent: number) => {
      const exchange = await connect(server.baseUrl)
      exchange.write(`${head}\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`)
      exchange.write(Buffer.alloc(sent, 0x20))
      // The rest of the body is never sent: the server must answer and close without waiting for it.
      const closedWithin = await Promise.race([exchange.closed.then(() => true), wait(5_000).then(() => false)])
      exchange.destroy()
      return { closedWithin, raw: exchange.received() }
    }

    it("is not read: /health given 100 MB answers 200 and closes the connection", async () => {
      const { closedWithin, raw } = await answeredEarly("GET /health HTTP/1.1", 100 * 1024 * 1024, 64 * 1024)
      expect(closedWithin).toBe(true)
      expect(statusOf(raw)).toBe(200)
      expect(JSON.parse(bodyOf(raw))).toEqual({ status: "ok" })
      expect(headerOf(raw, "connection")).toBe("close")
    })

    it("is not read after a 401: the connection closes after the answer", async () => {
      const { closedWithin, raw } = await answeredEarly("POST /api/v1/tags HTTP/1.1", 1_000_000, 10_000)
      expect(closedWithin).toBe(true)
      expect(statusOf(raw)).toBe(401)
      expect(JSON.parse(bodyOf(raw))).toEqual({ message: "Unauthenticated." })
      expect(headerOf(raw, "connection")).toBe("close")
    })

    it("is not read when sent in chunks either", async () => {
      const exchange = await connect(server.baseUrl)
      exchange.write("GET /health HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
      const stop = drip(exchange, "400\r\n" + " ".repeat(0x400) + "\r\n", 10)
      const closedWithin = await Promise.race([exchange.closed.then(() => true), wait(5_000).then(() => false)])
      stop()
      exchange.destroy()
      expect(closedWithin).toBe(true)
      expect(statusOf(exchange.received())).toBe(200)
      expect(headerOf(exchange.received(), "connection")).toBe("close")
    })
  })

  it("keeps the connection open for the next request after a request without a body, or with one read whole", async () => {
    const exchange = await connect(server.baseUrl)
    /** The head of the last answer received so far, once it is whole. */
    const answer = async (count: number) => {
      while (exchange.received().split("HTTP/1.1 ").length - 1 < count || !exchange.received().endsWith("}")) await wait(10)
      return `HTTP/1.1 ${exchange.received().split("HTTP/1.1 ")[count]}`
    }
    for (const [i, path] of ["/health", "/api/v1/me", "/api/v1/nothing"].entries()) {
      exchange.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`)
      const head = await answer(i + 1)
      expect([path, statusOf(head), headerOf(head, "connection")]).toEqual([path, [200, 401, 404][i], "keep-alive"])
    }
    const body = JSON.stringify({ name: "Kept alive" })
    exchange.write(
      `POST /api/v1/tags HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nService-Project-Id: ${project}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
    )
    const created = await answer(4)
    expect(statusOf(created)).toBe(201)
    expect(headerOf(created, "connection")).toBe("keep-alive")
    // The same connection serves one more request.
    exchange.write("GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    await exchange.closed
    expect(exchange.received().split("HTTP/1.1 ").length - 1).toBe(5)
    expect(exchange.received().endsWith(`{"status":"ok"}`)).toBe(true)
  })
})
