import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { Context, Duration, Effect, Layer } from "effect"

/** Whether the database answers. */
export class Readiness extends Context.Tag("Readiness")<Readiness, { readonly check: Effect.Effect<boolean> }>() {
  static readonly layerSql = Layer.effect(
    Readiness,
    Effect.map(SqlClient.SqlClient, (sql) => ({
      check: sql`SELECT 1`.pipe(
        Effect.timeout(Duration.seconds(2)),
        Effect.as(true),
        Effect.catchAll(() => Effect.succeed(false))
      )
    }))
  )
  static readonly layerAlways = Layer.succeed(Readiness, { check: Effect.succeed(true) })
}

/** `GET /health`: the process is up. `GET /ready`: and its database is reachable (else 503). */
export const layer = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const readiness = yield* Readiness
    yield* router.get("/health", HttpServerResponse.unsafeJson({ status: "ok" }))
    yield* router.get(
      "/ready",
      Effect.map(readiness.check, (ready) =>
        ready
          ? HttpServerResponse.unsafeJson({ status: "ready" })
          : HttpServerResponse.unsafeJson({ status: "unavailable", message: "Service Unavailable" }, { status: 503 }))
    )
  })
)
