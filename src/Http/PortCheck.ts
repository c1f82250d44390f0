import { Data, Effect } from "effect"
import { createServer } from "node:net"

/**
 * Whether the HTTP port can be had, checked by binding it for a moment before anything else starts: a
 * second server on a port in use stops at once, before it migrates the database or starts a collector.
 * It binds the address the server itself listens on (every interface), and frees it at once.
 */
export class PortUnavailable extends Data.TaggedError("PortUnavailable")<{
  /** Node's listen error (`EADDRINUSE`, `EACCES`), with its `port`: Logging's `reasonOf` says it in words. */
  readonly cause: NodeJS.ErrnoException
  readonly message: string
}> {}

export const checkPort = (port: number, host?: string): Effect.Effect<void, PortUnavailable> =>
  Effect.async<void, PortUnavailable>((resume) => {
    const probe = createServer()
    probe.once("error", (error: NodeJS.ErrnoException) =>
      resume(Effect.fail(new PortUnavailable({ cause: error, message: `port ${port} cannot be used: ${error.message}` }))))
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resume(Effect.void)))
    return Effect.sync(() => probe.close())
  })
