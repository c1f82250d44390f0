import { HttpApi, OpenApi } from "@effect/platform"
import * as ApiDocument from "./ApiDocument.ts"
import { addGroups } from "./Area.ts"
import { areas } from "./Areas.ts"
import { apiId, shared } from "./Http/ApiGroup.ts"
import { cleanOpenApi } from "./Http/OpenApiCleanup.ts"

/** The whole API, declared once: it gives the server, the OpenAPI document and a typed client. */
export class Api extends HttpApi.make(apiId)
  // The groups of every area (src/Areas.ts), in its order.
  .pipe(addGroups(areas), shared)
  .annotate(OpenApi.Title, "Brand Visibility Monitoring API")
  .annotate(OpenApi.Version, "1")
  .annotate(OpenApi.License, ApiDocument.license)
  .annotate(OpenApi.Servers, ApiDocument.servers)
  .annotate(OpenApi.Transform, (spec) => ApiDocument.describeTags(cleanOpenApi(spec)))
  .annotate(
    OpenApi.Description,
    "Monitors how AI platforms answer the questions a brand's buyers ask. Authenticate with `Authorization: Bearer <key>`; " +
      "monitor, prompt, tag and other project-scoped endpoints also need `Service-Project-Id: <project id>`. " +
      "Lists use a Laravel-style pagination envelope (`data`, `links`, `meta`); single resources are wrapped in `data`."
  )
{}
