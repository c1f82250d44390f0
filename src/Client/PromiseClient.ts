import { FetchHttpClient } from "@effect/platform"
import { Cause, Effect, Exit } from "effect"
import { type ClientOptions, make, type PromiseClient } from "./Client.ts"

/**
 * The client for TypeScript programs that do not use Effect:
 *
 * ```ts
 * const bvm = createClient({ baseUrl: "http://localhost:3000", apiKey: process.env.BVM_API_KEY!, projectId: 1 })
 * const page = await bvm.prompts.list({ urlParams: { per_page: 50 } })
 * ```
 *
 * A documented error rejects the promise with the typed error itself (`error._tag`).
 */
export const createClient = (options: ClientOptions): PromiseClient => {
  const client = Effect.runSync(Effect.provide(make(options), FetchHttpClient.layer)) as unknown as Record<
    string,
    Record<string, (request: unknown) => Effect.Effect<unknown, unknown>>
  >
  const promised: Record<string, Record<string, (request: unknown) => Promise<unknown>>> = {}
  for (const [group, methods] of Object.entries(client)) {
    promised[group] = Object.fromEntries(Object.entries(methods).map(([name, method]) => [name, (request: unknown) => run(method(request))]))
  }
  return promised as unknown as PromiseClient
}

const run = async <A>(effect: Effect.Effect<A, unknown>): Promise<A> => {
  const exit = await Effect.runPromiseExit(effect)
  if (Exit.isSuccess(exit)) return exit.value
  throw Cause.squash(exit.cause)
}
