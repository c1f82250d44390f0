/**
 * Post-processing of the generated OpenAPI document, so that it describes what the service answers:
 * the platform's own decode error (400 `HttpApiDecodeError`) never reaches a client here (decoding
 * failures are 422s, see ErrorResponse.ts), and a body that is not JSON is a 400 `MalformedBody`.
 */
type Spec = Record<string, any>

const DECODE_ERROR = "#/components/schemas/HttpApiDecodeError"
const MALFORMED = { $ref: "#/components/schemas/MalformedBody" }

const withoutDecodeError = (response: Spec | undefined): Spec | undefined => {
  const schema = response?.content?.["application/json"]?.schema
  if (schema === undefined) return response
  const options: Array<Spec> = (schema.anyOf ?? [schema]).filter((option: Spec) => option.$ref !== DECODE_ERROR)
  if (options.length === 0) return undefined
  return {
    description: "The `Service-Project-Id` header is missing or not a positive integer.",
    content: { "application/json": { schema: options.length === 1 ? options[0] : { anyOf: options } } }
  }
}

export const cleanOpenApi = (spec: Spec): Spec => {
  for (const operations of Object.values<Spec>(spec.paths ?? {})) {
    for (const operation of Object.values<Spec>(operations)) {
      const badRequest = withoutDecodeError(operation.responses?.["400"])
      if (operation.requestBody !== undefined) {
        const options = [...(badRequest ? [badRequest.content["application/json"].schema] : []), MALFORMED]
        operation.responses["400"] = {
          description: badRequest
            ? "The project header is missing or invalid, or the body is not JSON."
            : "The body is not JSON.",
          content: { "application/json": { schema: options.length === 1 ? options[0] : { anyOf: options } } }
        }
      } else if (badRequest === undefined) {
        delete operation.responses["400"]
      } else {
        operation.responses["400"] = badRequest
      }
    }
  }
  const schemas = spec.components?.schemas ?? {}
  delete schemas.HttpApiDecodeError
  delete schemas.Issue
  delete schemas.PropertyKey
  schemas.MalformedBody = {
    type: "object",
    required: ["message"],
    properties: { message: { type: "string", examples: ["The request body is not valid JSON."] } },
    additionalProperties: false
  }
  return spec
}
