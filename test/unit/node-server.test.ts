import type { AddressInfo } from "node:net"
import { describe, expect, it } from "vitest"
import { CHECK_INTERVAL_MS, makeNodeServer } from "../../src/Http/NodeServer.ts"

/**
 * The server listens a moment before the API's handler is attached (the platform listens first, then
 * builds the app). A request in that moment must wait for the handler, not hang forever.
 */
describe("the Node server", () => {
  it("holds a request that arrives before the handler and answers it once the handler is attached", async () => {
    const server = makeNodeServer({ requestTimeoutSeconds: 60 })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    try {
      const { port } = server.address() as AddressInfo
      const early = fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(5_000) }).then((reply) => reply.text())
      await new Promise((resolve) => setTimeout(resolve, 200))
      server.on("request", (_request, response) => response.end("handled"))
      expect(await early).toBe("handled")
      // Later requests go straight to the handler.
      expect(await fetch(`http://127.0.0.1:${port}/health`).then((reply) => reply.text())).toBe("handled")
    } finally {
      server.close()
    }
  })

  it("refuses a request not whole after the timeout, headers included, and looks for one every quarter second", () => {
    const server = makeNodeServer({ requestTimeoutSeconds: 60 })
    expect(server.requestTimeout).toBe(60_000)
    expect(server.headersTimeout).toBe(60_000)
    // Node's default is 30 s: a 60 s timeout then fired at up to 90 s.
    expect((server as unknown as { connectionsCheckingInterval: number }).connectionsCheckingInterval).toBe(CHECK_INTERVAL_MS)
    expect(CHECK_INTERVAL_MS).toBeLessThanOrEqual(250)
    server.close()
  })
})
