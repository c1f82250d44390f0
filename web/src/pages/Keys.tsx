import { useRef, useState } from "preact/hooks"
import { abilitiesInWords, abilityInWords } from "../abilities.ts"
import { ApiError } from "../api/client.ts"
import type { ApiKey, Data, Paginated } from "../api/types.ts"
import { ConfirmButton } from "../components/Confirm.tsx"
import { type Column, DataTable } from "../components/DataTable.tsx"
import { CheckGroup, errorsFor, Field } from "../components/Field.tsx"
import { ErrorNotice, Loading, Notice } from "../components/Notice.tsx"
import { Pager } from "../components/Pager.tsx"
import { date, dateTime, todayUtc } from "../format.ts"
import type { PageProps } from "../Layout.tsx"
import { useLoad } from "../load.ts"
import { navigate, withQuery } from "../router.tsx"
import { useSession } from "../session-context.tsx"
import { FormError } from "./setup/Section.tsx"

type Created = ApiKey & { readonly key: string }

const statusOf = (key: ApiKey) =>
  key.revoked ? "revoked" : key.expires_at !== null && Date.parse(key.expires_at) <= Date.now() ? "expired" : "active"

/**
 * The organization's API keys: list, create (the full key shown once, with a copy button) and revoke.
 * A key can only hand on abilities and projects it has itself; the form offers those, and the API
 * refuses the rest (422, shown beside the fields).
 */
export const Keys = ({ location }: PageProps) => {
  const session = useSession()
  const page = Math.max(1, Number(location.query.get("page")) || 1)
  const keys = useLoad((signal) => session.client.get<Paginated<ApiKey>>("/api-keys", { signal, query: { page, per_page: 25 } }), [page])
  const [created, setCreated] = useState<Created | undefined>(undefined)
  const [revoked, setRevoked] = useState<string | undefined>(undefined)
  const [revokeError, setRevokeError] = useState<ApiError | undefined>(undefined)
  const projectName = (id: number) => session.me.projects.find((project) => project.id === id)?.name ?? `Project ${id}`

  const revoke = async (key: ApiKey) => {
    setRevokeError(undefined)
    try {
      await session.client.request("DELETE", `/api-keys/${key.id}`)
      setRevoked(`Key “${key.name}” revoked.`)
      // Revoking the signed-in key: this request fails with 401, which signs out.
      keys.reload()
    } catch (error) {
      if (error instanceof ApiError) setRevokeError(error)
    }
  }

  const columns: ReadonlyArray<Column<ApiKey>> = [
    {
      label: "Name",
      render: (key) => <>{key.name}{key.id === session.me.key.id && <span class="badge badge-own">signed in</span>}</>
    },
    { label: "Prefix", render: (key) => <code>{key.prefix}…</code> },
    {
      label: "Abilities",
      render: (key) => <span class="abilities">{abilitiesInWords(key.abilities)}</span>
    },
    { label: "Projects", render: (key) => (key.project_ids === null ? "all" : key.project_ids.map(projectName).join(", ")) },
    { label: "Expires", class: "date", render: (key) => (key.expires_at === null ? "never" : date(key.expires_at)) },
    { label: "Last used", class: "date", render: (key) => dateTime(key.last_used_at) },
    { label: "Created", class: "date", render: (key) => date(key.created_at) },
    { label: "Status", render: (key) => <span class={`status status-${statusOf(key)}`}>{statusOf(key)}</span> },
    {
      label: "Actions",
      render: (key) =>
        statusOf(key) === "revoked" ? null : (
          <ConfirmButton
            label="Revoke"
            accessibleLabel={`Revoke key ${key.name}`}
            title={`Revoke the key “${key.name}”?`}
            confirmLabel="Revoke"
            onConfirm={() => revoke(key)}
          >
            <p>Requests with it are refused from now on. This cannot be undone.</p>
            {key.id === session.me.key.id && <p class="notice notice-warning">This is the key you are signed in with: you will be signed out.</p>}
          </ConfirmButton>
        )
    }
  ]

  return (
    <div class="page">
      <h1>API keys</h1>
      <p class="lead">The keys of {session.me.organization.name}. Only a key’s prefix is kept readable: the full key is shown once, when it is made.</p>
      {created !== undefined && <NewKey created={created} onDone={() => setCreated(undefined)} />}
      {revoked !== undefined && <Notice kind="success">{revoked}</Notice>}
      {revokeError !== undefined && <ErrorNotice error={revokeError} what="revoke the key" />}
      {session.can("keys:manage") && created === undefined && (
        <CreateKey
          onCreated={(key) => {
            setCreated(key)
            setRevoked(undefined)
            keys.reload()
          }}
        />
      )}
      <section class="card" aria-labelledby="keys-title">
        <h2 id="keys-title">Keys</h2>
        {keys.error !== undefined && <ErrorNotice error={keys.error} what="list the keys" />}
        {keys.data === undefined ? keys.error === undefined && <Loading /> : (
          <>
            <DataTable caption="Keys of the organization" captionHidden columns={columns} rows={keys.data.data} rowKey={(key) => key.id} rowClass={(key) => statusOf(key) === "active" ? undefined : "inactive"} />
            <Pager meta={keys.data.meta} onPage={(next) => navigate(withQuery(location, { page: next }), { replace: true })} label="Key pages" />
          </>
        )}
      </section>
    </div>
  )
}

/** The key just made, shown this once, with a copy button. */
const NewKey = ({ created, onDone }: { readonly created: Created; readonly onDone: () => void }) => {
  const input = useRef<HTMLInputElement>(null)
  const [copied, setCopied] = useState<string | undefined>(undefined)
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.key)
      setCopied("Copied to the clipboard.")
    } catch {
      input.current?.select()
      setCopied("Select the key and copy it (the browser refused the clipboard).")
    }
  }
  return (
    <section class="card new-key" aria-labelledby="new-key-title" role="region">
      <h2 id="new-key-title">Key “{created.name}” created</h2>
      <p><strong>Copy it now: it is shown only this once.</strong> Only its prefix is kept readable.</p>
      <div class="copy-row">
        <label for="new-key" class="visually-hidden">The new key</label>
        <input id="new-key" ref={input} readOnly value={created.key} spellcheck={false} onFocus={(event) => event.currentTarget.select()} />
        <button type="button" class="primary" onClick={copy}>Copy</button>
      </div>
      <p role="status" class="muted">{copied ?? ""}</p>
      <button type="button" onClick={onDone}>Done, I have stored it</button>
    </section>
  )
}

const CreateKey = ({ onCreated }: { readonly onCreated: (key: Created) => void }) => {
  const session = useSession()
  const [name, setName] = useState("")
  const [abilities, setAbilities] = useState<ReadonlyArray<string>>([])
  const [scope, setScope] = useState<"all" | "some">("all")
  const [projects, setProjects] = useState<ReadonlyArray<string>>([])
  const [expires, setExpires] = useState("")
  const [error, setError] = useState<ApiError | undefined>(undefined)
  const [busy, setBusy] = useState(false)
  const errors = error?.body.errors
  const submit = async (event: Event) => {
    event.preventDefault()
    setBusy(true)
    setError(undefined)
    try {
      const answer = await session.client.request<Data<Created>>("POST", "/api-keys", {
        body: {
          name,
          abilities,
          project_ids: scope === "all" ? null : projects.map(Number),
          expires_at: expires === "" ? null : `${expires}T23:59:59.999Z`
        }
      })
      onCreated(answer.data)
    } catch (failure) {
      if (failure instanceof ApiError) setError(failure)
    } finally {
      setBusy(false)
    }
  }
  return (
    <section class="card form" aria-labelledby="create-key-title">
      <h2 id="create-key-title">New key</h2>
      <form noValidate onSubmit={submit}>
        <FormError error={error} />
        <div class="form-grid">
          <Field id="key-name" label="Name" hint="Who or what uses it" errors={errorsFor(errors, "name")}>
            {(p) => <input {...p} value={name} onInput={(e) => setName(e.currentTarget.value)} />}
          </Field>
          <Field id="key-expires" label="Expires after (optional)" hint="The key stops working at the end of this day (UTC)" errors={errorsFor(errors, "expires_at")}>
            {(p) => <input {...p} type="date" min={todayUtc()} value={expires} onInput={(e) => setExpires(e.currentTarget.value)} />}
          </Field>
        </div>
        <CheckGroup
          id="key-abilities"
          legend="Abilities (those of your key)"
          options={session.me.abilities.map((ability) => ({ value: ability, label: abilityInWords(ability) }))}
          selected={abilities}
          onChange={setAbilities}
          errors={errorsFor(errors, "abilities")}
          columns
        />
        <div class="actions-inline">
          <button type="button" class="link" onClick={() => setAbilities(session.me.abilities)}>Select all</button>
          <button type="button" class="link" onClick={() => setAbilities(session.me.abilities.filter((ability) => ability.endsWith(":read")))}>Read-only</button>
          <button type="button" class="link" onClick={() => setAbilities([])}>None</button>
        </div>
        <fieldset class={errorsFor(errors, "project_ids").length > 0 ? "field field-invalid" : "field"}>
          <legend>Projects</legend>
          <div class="choices">
            <label class="check"><input type="radio" name="key-scope" checked={scope === "all"} onChange={() => setScope("all")} /> Every project of the organization</label>
            <label class="check"><input type="radio" name="key-scope" checked={scope === "some"} onChange={() => setScope("some")} /> Only these:</label>
            {scope === "some" && (
              <div class="checks sub-choices" id="key-projects-list" role="group" aria-label="Projects the key may act in">
                {session.me.projects.map((project) => (
                  <label key={project.id} class="check">
                    <input
                      type="checkbox"
                      name="key-projects"
                      value={String(project.id)}
                      checked={projects.includes(String(project.id))}
                      onChange={(event) =>
                        setProjects(event.currentTarget.checked ? [...projects, String(project.id)] : projects.filter((id) => id !== String(project.id)))}
                    />
                    {project.name}
                  </label>
                ))}
              </div>
            )}
          </div>
          {errorsFor(errors, "project_ids").length > 0 && (
            <ul class="field-errors">{errorsFor(errors, "project_ids").map((message) => <li key={message}>{message}</li>)}</ul>
          )}
        </fieldset>
        <div class="actions">
          <button type="submit" class="primary" disabled={busy}>Create key</button>
        </div>
      </form>
    </section>
  )
}
