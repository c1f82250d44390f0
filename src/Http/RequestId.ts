import { Context } from "effect"

/** The id of the request being served: in every log line, the `X-Request-Id` header and 5xx bodies. */
export class RequestId extends Context.Reference<RequestId>()("RequestId", { defaultValue: () => "-" }) {}
