import { useState } from "preact/hooks"
import { ApiError } from "../api/client.ts"
import type { Project } from "../api/types.ts"
import { errorsFor, Field } from "../components/Field.tsx"
import { useSession } from "../session-context.tsx"

/** A key that reaches no project yet: create the first one (with `projects:write`). */
export const NoProject = () => {
  const session = useSession()
  const [name, setName] = useState("")
  const [domain, setDomain] = useState("")
  const [error, setError] = useState<ApiError | undefined>(undefined)
  const [created, setCreated] = useState<Project | undefined>(undefined)
  const submit = async (event: Event) => {
    event.preventDefault()
    try {
      const answer = await session.client.request<{ data: Project }>("POST", "/projects", {
        body: { name, domain: domain.trim() === "" ? null : domain.trim() }
      })
      setCreated(answer.data)
      await session.refresh()
    } catch (failure) {
      if (failure instanceof ApiError) setError(failure)
    }
  }
  return (
    <>
      <h1>No project yet</h1>
      <p>This key may act in no project of {session.me.organization.name}.</p>
      {created !== undefined
        ? <p class="notice notice-success" role="status">Project “{created.name}” created.</p>
        : session.can("projects:write") && (
          <form class="card form" onSubmit={submit} noValidate>
            <h2>Create a project</h2>
            {error !== undefined && error.status !== 422 && <p class="notice notice-error" role="alert">{error.message}</p>}
            <Field id="project-name" label="Name" errors={errorsFor(error?.body.errors, "name")}>
              {(props) => <input {...props} value={name} onInput={(event) => setName(event.currentTarget.value)} />}
            </Field>
            <Field id="project-domain" label="Domain (optional)" errors={errorsFor(error?.body.errors, "domain")}>
              {(props) => <input {...props} value={domain} placeholder="example.com" onInput={(event) => setDomain(event.currentTarget.value)} />}
            </Field>
            <button type="submit" class="primary">Create project</button>
          </form>
        )}
    </>
  )
}
