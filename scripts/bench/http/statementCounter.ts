/**
 * A loopback TCP proxy in front of PostgreSQL that reads the wire protocol and counts what a server
 * process asks of the database: statements executed, statements parsed, round trips (a Sync or a
 * simple Query is one wait for the database's ReadyForQuery), and how long those waits took. A server
 * pointed at it through its DATABASE_URL shows what one request costs in database work, without
 * changing a line of it.
 *
 * TLS is not supported: the bench talks to a local server in clear.
 */
import * as Net from "node:net"

export interface StatementCounts {
  readonly roundTrips: number
  readonly statements: number
  readonly parses: number
  /** Milliseconds from each Sync or Query to its ReadyForQuery, summed: the time spent waiting for PostgreSQL. */
  readonly waitMs: number
  /** Statements by their text (whitespace collapsed): how many times each ran, and its share of the wait. */
  readonly texts: ReadonlyMap<string, { readonly count: number; readonly ms: number }>
}

const SSL_REQUEST = 80877103
const GSSENC_REQUEST = 80877104

/** Splits a byte stream into protocol messages: `onMessage(type, body)`; the client's startup packets have no type. */
const messageReader = (untypedFirst: boolean, onMessage: (type: string, body: Buffer) => void) => {
  let buffer = Buffer.alloc(0)
  let startup = untypedFirst
  return (chunk: Buffer) => {
    buffer = Buffer.concat([buffer, chunk])
    while (true) {
      if (startup) {
        if (buffer.length < 8) return
        const length = buffer.readInt32BE(0)
        if (buffer.length < length) return
        const code = buffer.readInt32BE(4)
        buffer = buffer.subarray(length)
        if (code !== SSL_REQUEST && code !== GSSENC_REQUEST) startup = false
        continue
      }
      if (buffer.length < 5) return
      const length = buffer.readInt32BE(1)
      if (buffer.length < 1 + length) return
      const type = String.fromCharCode(buffer[0]!)
      const body = buffer.subarray(5, 1 + length)
      buffer = buffer.subarray(1 + length)
      onMessage(type, body)
    }
  }
}

const cString = (body: Buffer, from: number) => {
  const end = body.indexOf(0, from)
  return { value: body.toString("utf8", from, end), next: end + 1 }
}

export const startStatementCounter = async (target: { readonly host: string; readonly port: number }) => {
  let roundTrips = 0
  let statements = 0
  let parses = 0
  let waitNs = 0n
  let texts = new Map<string, { count: number; ms: number }>()

  const sockets = new Set<Net.Socket>()
  const server = Net.createServer((client) => {
    const upstream = Net.connect(target.port, target.host)
    for (const socket of [client, upstream]) {
      // Pass every chunk on at once: Nagle's algorithm would hold small ones back and add waits of its own.
      socket.setNoDelay(true)
      sockets.add(socket)
      socket.on("close", () => sockets.delete(socket))
    }
    client.pipe(upstream)
    upstream.pipe(client)
    client.on("error", () => upstream.destroy())
    upstream.on("error", () => client.destroy())
    client.on("close", () => upstream.destroy())
    upstream.on("close", () => client.destroy())

    // Statement names to their text, the text of the portal bound last, the statements of the batch
    // being sent, and the batches sent whose ReadyForQuery has not come yet.
    const prepared = new Map<string, string>()
    let bound = ""
    let batch: Array<string> = []
    const waiting: Array<{ readonly at: bigint; readonly texts: ReadonlyArray<string> }> = []
    const execute = (text: string) => {
      batch.push(text.replace(/\s+/g, " ").trim())
      statements++
    }
    const send = () => {
      roundTrips++
      waiting.push({ at: process.hrtime.bigint(), texts: batch })
      batch = []
    }

    client.on("data", messageReader(true, (type, body) => {
      switch (type) {
        case "Q":
          execute(cString(body, 0).value)
          send()
          break
        case "P": {
          parses++
          const name = cString(body, 0)
          prepared.set(name.value, cString(body, name.next).value)
          break
        }
        case "B":
          bound = prepared.get(cString(body, cString(body, 0).next).value) ?? "(unknown statement)"
          break
        case "E":
          execute(bound)
          break
        case "S":
          send()
          break
      }
    }))
    upstream.on("data", messageReader(false, (type) => {
      // The ReadyForQuery that ends the start-up answers no batch.
      if (type !== "Z" || waiting.length === 0) return
      const { at, texts: sent } = waiting.shift()!
      const ns = process.hrtime.bigint() - at
      waitNs += ns
      for (const text of sent) {
        const entry = texts.get(text) ?? { count: 0, ms: 0 }
        entry.count++
        entry.ms += Number(ns) / 1e6 / sent.length
        texts.set(text, entry)
      }
    }))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  const port = (server.address() as Net.AddressInfo).port
  return {
    port,
    reset: () => {
      roundTrips = 0
      statements = 0
      parses = 0
      waitNs = 0n
      texts = new Map()
    },
    counts: (): StatementCounts => ({
      roundTrips,
      statements,
      parses,
      waitMs: Number(waitNs) / 1e6,
      texts: new Map([...texts].map(([text, entry]) => [text, { ...entry }]))
    }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        server.close(() => resolve())
      })
  }
}
