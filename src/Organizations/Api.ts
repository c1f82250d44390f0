import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import { Organization } from "../Domain/Organization.ts"
import { guarded } from "../Http/Authorize.ts"
import * as ErrorSchemas from "../Http/ErrorSchemas.ts"
import * as Fields from "../Http/Fields.ts"
import { DataOf } from "../Http/Responses.ts"

export const UpdateOrganization = Fields.input({ name: Fields.optional(Fields.text("name", 255)) }).annotations({
  examples: [{ name: "Acme Marketing" }]
})

export class OrganizationsApi extends HttpApiGroup.make("organization")
  .add(
    HttpApiEndpoint.get("get", "/organization")
      .addSuccess(DataOf(Organization))
      .pipe(guarded("organization:read", "Read the organization", "The organization of the key."))
  )
  .add(
    HttpApiEndpoint.patch("update", "/organization")
      .setPayload(UpdateOrganization)
      .addSuccess(DataOf(Organization))
      .addError(ErrorSchemas.ValidationError)
      .pipe(guarded("organization:manage", "Rename the organization", "Changes the organization's name (1-255 characters)."))
  )
  .annotate(OpenApi.Title, "Organization")
{}
