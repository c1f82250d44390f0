import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Organization } from "../Domain/Organization.ts"
import { requires } from "../Http/Authorize.ts"
import * as Fields from "../Http/Fields.ts"
import { DataOf } from "../Http/Responses.ts"

export const UpdateOrganization = Fields.input({ name: Fields.optional(Fields.text("name", 255)) }).annotations({
  examples: [{ name: "Acme Marketing" }]
})

export class OrganizationsApi extends HttpApiGroup.make("organization")
  .add(
    HttpApiEndpoint.get("get", "/organization")
      .addSuccess(DataOf(Organization))
      .middleware(requires("organization:read"))
      .annotate(OpenApi.Summary, "Read the organization")
      .annotate(OpenApi.Description, "The organization of the key. Ability `organization:read`.")
  )
  .add(
    HttpApiEndpoint.patch("update", "/organization")
      .setPayload(UpdateOrganization)
      .addSuccess(DataOf(Organization))
      .middleware(requires("organization:manage"))
      .annotate(OpenApi.Summary, "Rename the organization")
      .annotate(OpenApi.Description, "Changes the organization's name (1-255 characters). Ability `organization:manage`.")
  )
  .annotate(OpenApi.Title, "Organization")
{}
