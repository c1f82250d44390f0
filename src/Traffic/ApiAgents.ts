import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { authenticated } from "../Http/Authorize.ts"
import { DataOf } from "../Http/Responses.ts"
import { AgentView } from "./AgentsView.ts"

export class AgentsApi extends HttpApiGroup.make("agents")
  .add(
    HttpApiEndpoint.get("list", "/agents")
      .addSuccess(DataOf(Schema.Array(AgentView)))
      .middleware(authenticated)
      .annotate(OpenApi.Summary, "List the agent catalogue")
      .annotate(
        OpenApi.Description,
        "The AI crawlers and assistants the service recognises in a site's logs, by id (a plain array, not paginated): " +
          "each with its user-agent token, operator, purpose, the platforms its reading feeds, and how a request claiming it is verified, " +
          "with the prefixes of the operator's published lists as held today and the date of that snapshot. Needs no ability and no project header."
      )
  )
  .annotate(OpenApi.Title, "Agents")
{}
