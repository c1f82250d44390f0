/**
 * Checked by the compiler (`npm run typecheck`), not run: a handler may fail only with the errors its
 * endpoint, its group or its middleware declare (src/Domain/Errors.ts). Each `@ts-expect-error` below
 * marks a handler the compiler must reject; if it ever accepted one, the unused directive would fail
 * the type check.
 */
import { HttpApiBuilder } from "@effect/platform"
import { Effect } from "effect"
import { Api } from "../../src/Api.ts"
import { NotFound, ValidationError } from "../../src/Domain/Errors.ts"

const ok = () => Effect.die("not run")

export const declaredErrors = HttpApiBuilder.group(Api, "tags", (handlers) =>
  Effect.succeed(
    handlers
      .handle("list", ok)
      .handle("create", ok)
      .handle("update", ok)
      // Declared by the endpoints: a path resource not found, a body that fails validation.
      .handle("get", () => Effect.fail(new NotFound({ resource: "Tag" })))
      .handle("delete", () => Effect.fail(new NotFound({ resource: "Tag" })))
  ))

export const undeclaredValidation = HttpApiBuilder.group(Api, "tags", (handlers) =>
  Effect.succeed(
    handlers
      .handle("list", ok)
      .handle("create", () => Effect.fail(ValidationError.field("name", "declared")))
      .handle("update", ok)
      .handle("get", ok)
      // @ts-expect-error: `DELETE /tags/{tag}` has no body nor query, so no 422 (errors are declared per endpoint).
      .handle("delete", () => Effect.fail(ValidationError.field("name", "not declared")))
  ))

export const anyError = HttpApiBuilder.group(Api, "tags", (handlers) =>
  Effect.succeed(
    handlers
      .handle("list", ok)
      .handle("create", ok)
      .handle("update", ok)
      .handle("delete", ok)
      // @ts-expect-error: an Error is no declared error, whatever its message.
      .handle("get", () => Effect.fail(new Error("Tag not found")))
  ))

export const sqlError = HttpApiBuilder.group(Api, "tags", (handlers) =>
  Effect.succeed(
    handlers
      .handle("list", ok)
      .handle("create", ok)
      .handle("update", ok)
      .handle("delete", ok)
      // @ts-expect-error: a failure that only looks like an error body is refused too.
      .handle("get", () => Effect.fail({ message: "Tag not found" }))
  ))
