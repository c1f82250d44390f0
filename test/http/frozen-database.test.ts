import { HttpServer } from "@effect/platform"
import { Effect, Exit, Layer, Logger, LogLevel, ManagedRuntime, Redacted, Scope } from "effect"
import * as Net from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Settings } from "../../src/Config.ts"
import * as Database from "../../src/Database/Database.ts"
import { Metrics } from "../../src/Observability/Metrics.ts"
import { Analyzer } from "../../src/Responses/Analyzer.ts"
import { onDatabase, serve } from "../../src/Server.ts"
import * as Embedded from "../../src/Database/Embedded.ts"
import { createDatabase, sqlBackend } from "../support/TestServer.ts"

/**
 * A database that stops answering without closing its connections (frozen, or cut off by the
 * network): requests get 503 within the statement timeout instead of hanging for as long as it lasts,
 * and the service recovers by itself when it answers again. The database is reached through a proxy
 * that can hold every byte in both directions.
 */

/** A TCP proxy to `target`; `freeze` holds all traffic (buffered, nothing closed), `thaw` lets it flow. */
const makeProxy = async (target: Net.NetConnectOpts) => {
  let frozen = false
  const held: Array<() => void> = []
  const pipe = (from: Net.Socket, to: Net.Socket) =>
    from.on("data", (chunk) => {
      if (frozen) held.push(() => to.write(chunk))
      else to.write(chunk)
    })
  const sockets = new Set<Net.Socket>()
  const server = Net.createServer((client) => {
    const upstream = Net.connect(target)
    for (const socket of [client, upstream]) {
      sockets.add(socket)
      socket.on("error", () => {})
      socket.on("close", () => sockets.delete(socket))
    }
    pipe(client, upstream)
    pipe(upstream, client)
    client.on("close", () => upstream.destroy())
    upstream.on("close", () => client.destroy())
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  return {
    port: (server.address() as Net.AddressInfo).port,
    freeze: () => {
      frozen = true
    },
    thaw: () => {
      frozen = false
      for (const write of held.splice(0)) write()
    },
    /** Closes every connection made so far, as a restarting database or a failover does. */
    cut: () => {
      for (const socket of sockets) socket.destroy()
    },
    close: () => {
      for (const socket of sockets) socket.destroy()
      return new Promise<void>((resolve) => server.close(() => resolve()))
    }
  }
}

describe(`a frozen database (${sqlBackend})`, () => {
  const statementTimeoutSeconds = 1
  let proxy: Awaited<ReturnType<typeof makeProxy>>
  let runtime: ManagedRuntime.ManagedRuntime<HttpServer.HttpServer, unknown>
  let baseUrl: string
  let drop = async () => {}
  let closeEmbedded = async () => {}

  beforeAll(async () => {
    let url: URL
    if (sqlBackend === "postgres") {
      const db = await createDatabase(process.env.DATABASE_URL!)
      drop = db.drop
      url = new URL(db.url)
      proxy = await makeProxy({ host: url.hostname, port: Number(url.port || 5432) })
    } else {
      // The embedded database listens on a Unix socket; the proxy puts it on a loopback port.
      const { close, endpoint } = await serveEmbedded()
      closeEmbedded = close
      url = new URL("postgres://postgres@127.0.0.1/postgres")
      proxy = await makeProxy({ path: `${endpoint.host}/.s.PGSQL.${endpoint.port}` })
    }
    url.hostname = "127.0.0.1"
    url.port = String(proxy.port)
    const data = onDatabase(Database.layerServer(Redacted.make(url.toString()), statementTimeoutSeconds * 1000))
    runtime = ManagedRuntime.make(
      serve({ port: 0, host: "127.0.0.1" }).pipe(
        Layer.provide(Metrics.layer),
        Layer.provide(Analyzer.inProcess),
        Layer.provide(data),
        Layer.provide(Settings.layerWith({ rateLimitPerMinute: 1_000_000 })),
        Layer.provide(Logger.minimumLogLevel(LogLevel.None))
      )
    )
    const address = await runtime.runPromise(HttpServer.addressWith(Effect.succeed))
    if (address._tag !== "TcpAddress") throw new Error("expected a TCP address")
    baseUrl = `http://127.0.0.1:${address.port}`
  })
  afterAll(async () => {
    proxy.thaw()
    await runtime.dispose()
    await proxy.close()
    await closeEmbedded()
    await drop()
  })

  it("answers 503 within the statement timeout while frozen, and recovers by itself when it answers again", async () => {
    const key = "bvm_" + "a".repeat(40)
    // Before: the database answers (an unknown key is a clean 401).
    expect((await fetch(`${baseUrl}/api/v1/me`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(401)
    proxy.freeze()
    const started = Date.now()
    const replies = await Promise.all(
      Array.from({ length: 3 }, () => fetch(`${baseUrl}/api/v1/me`, { headers: { authorization: `Bearer ${key}` } }))
    )
    for (const reply of replies) {
      expect(reply.status).toBe(503)
      expect(await reply.json()).toMatchObject({ message: "Service Unavailable", request_id: expect.any(String) })
    }
    // A hang bound: the statement timeout plus its margin, not the length of the freeze.
    expect(Date.now() - started).toBeLessThan(15_000)
    expect((await fetch(`${baseUrl}/ready`)).status).toBe(503)
    proxy.thaw()
    let status = 0
    for (let attempt = 0; attempt < 50 && status !== 401; attempt++) {
      status = (await fetch(`${baseUrl}/api/v1/me`, { headers: { authorization: `Bearer ${key}` } })).status
      if (status !== 401) await new Promise((resolve) => setTimeout(resolve, 200))
    }
    expect(status).toBe(401)
    expect((await fetch(`${baseUrl}/ready`)).status).toBe(200)
  }, 60_000)

  it("outlives the database closing every connection (a restart, a failover), and reconnects by itself", async () => {
    const key = "bvm_" + "b".repeat(40)
    const me = { headers: { authorization: `Bearer ${key}` } }
    // Several connections in the pool, idle once these are answered.
    const before = await Promise.all(Array.from({ length: 4 }, () => fetch(`${baseUrl}/api/v1/me`, me)))
    expect(before.map((reply) => reply.status)).toEqual([401, 401, 401, 401])
    proxy.cut()
    // An idle connection closed under the pool must not end the process (an unheard pool error would).
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(await statusUntil(`${baseUrl}/api/v1/me`, me, 401)).toBe(401)
    expect(await statusUntil(`${baseUrl}/ready`, {}, 200)).toBe(200)
  }, 60_000)
})

/** Asks until the status is `expected`, for at most 10 s; the last status. */
const statusUntil = async (url: string, init: RequestInit, expected: number) => {
  let status = 0
  for (let attempt = 0; attempt < 50 && status !== expected; attempt++) {
    status = (await fetch(url, init)).status
    if (status !== expected) await new Promise((resolve) => setTimeout(resolve, 200))
  }
  return status
}

/** The embedded database served on its own socket, outside the server under test. */
const serveEmbedded = async () => {
  const scope = await Effect.runPromise(Scope.make())
  const endpoint = await Effect.runPromise(Scope.extend(Embedded.serve({ dataDir: undefined }), scope))
  return { endpoint, close: () => Effect.runPromise(Scope.close(scope, Exit.void)) }
}
