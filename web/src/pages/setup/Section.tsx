import type { ComponentChildren } from "preact"
import { useState } from "preact/hooks"
import { ApiError } from "../../api/client.ts"
import type { Paginated } from "../../api/types.ts"
import { ConfirmButton } from "../../components/Confirm.tsx"
import { type Column, DataTable } from "../../components/DataTable.tsx"
import { ErrorNotice, Loading, Notice } from "../../components/Notice.tsx"
import { Pager } from "../../components/Pager.tsx"
import { useLoad } from "../../load.ts"
import { type Location, navigate, withQuery } from "../../router.tsx"
import { projectData, type SharedKind, useSession } from "../../session-context.tsx"

/** What a form gets: the row it edits (none: a new one), the API's error of the last attempt, and how to send. */
export interface FormProps<Row> {
  readonly row: Row | undefined
  readonly error: ApiError | undefined
  readonly busy: boolean
  readonly onSubmit: (body: Record<string, unknown>) => void
  readonly onCancel: () => void
}

/** The message of a failed save that is not about a field (a 422's field messages sit beside the fields). */
export const FormError = ({ error }: { readonly error: ApiError | undefined }) =>
  error === undefined ? null : error.status === 422
    ? <p class="notice notice-error" role="alert">{error.message} See the messages beside the fields.</p>
    : <ErrorNotice error={error} what="save" />

/**
 * The frame of every Setup form: no browser validation (the API's messages show beside the fields
 * instead), the error of the last attempt above the fields, and the submit and cancel buttons below.
 * `body` is what the form sends.
 */
export const SetupForm = ({ body, children, noun, props }: {
  readonly props: FormProps<unknown>
  readonly noun: string
  readonly body: () => Record<string, unknown>
  readonly children: ComponentChildren
}) => {
  const editing = props.row !== undefined
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault()
        props.onSubmit(body())
      }}
    >
      <FormError error={props.error} />
      {children}
      <div class="actions">
        <button type="submit" class="primary" disabled={props.busy}>{editing ? `Save ${noun}` : `Create ${noun}`}</button>
        {editing && <button type="button" onClick={props.onCancel}>Cancel</button>}
      </div>
    </form>
  )
}

/**
 * One kind of resource in Setup: its form (create, or edit the chosen row) above its paginated list,
 * each row with Edit and Delete (confirmed). Saves go to the API as they are; a 422's `errors` come
 * back to the form, which shows them beside the fields.
 */
export const Section = <Row extends { readonly id: number }>(props: {
  readonly location: Location
  readonly kind: SharedKind
  readonly path: string
  readonly noun: string
  readonly title: string
  readonly writeAbility: string
  readonly columns: ReadonlyArray<Column<Row>>
  readonly nameOf: (row: Row) => string
  readonly Form: (props: FormProps<Row>) => ComponentChildren
  readonly query?: Readonly<Record<string, string | number | undefined>>
  readonly filters?: ComponentChildren
  readonly extraActions?: (row: Row, reload: () => void) => ComponentChildren
  readonly deleteWarning?: string
  /** Other shared lists a change makes stale (deleting the own brand clears the project's brand_id). */
  readonly alsoForget?: ReadonlyArray<SharedKind>
  readonly onChanged?: () => void
}) => {
  const session = useSession()
  const data = projectData(session)
  const page = Math.max(1, Number(props.location.query.get("page")) || 1)
  const list = useLoad(
    (signal) => session.client.get<Paginated<Row>>(props.path, { project: true, signal, query: { ...props.query, page, per_page: 25 } }),
    [props.path, page, JSON.stringify(props.query ?? {})]
  )
  const [editing, setEditing] = useState<Row | undefined>(undefined)
  const [error, setError] = useState<ApiError | undefined>(undefined)
  const [busy, setBusy] = useState(false)
  const [done, setDone] = useState<string | undefined>(undefined)
  const [formKey, setFormKey] = useState(0)
  const [deleteError, setDeleteError] = useState<ApiError | undefined>(undefined)
  const canWrite = session.can(props.writeAbility)

  const changed = (message: string) => {
    data.forget(props.kind)
    for (const kind of props.alsoForget ?? []) data.forget(kind)
    props.onChanged?.()
    setDone(message)
    setEditing(undefined)
    setError(undefined)
    setFormKey((n) => n + 1)
    list.reload()
  }

  const save = async (body: Record<string, unknown>) => {
    setBusy(true)
    setDone(undefined)
    try {
      const answer = editing === undefined
        ? await session.client.request<{ data: Row }>("POST", props.path, { project: true, body })
        : await session.client.request<{ data: Row }>("PATCH", `${props.path}/${editing.id}`, { project: true, body })
      changed(`${props.noun[0]!.toUpperCase()}${props.noun.slice(1)} “${props.nameOf(answer.data)}” ${editing === undefined ? "created" : "saved"}.`)
    } catch (failure) {
      if (failure instanceof ApiError) setError(failure)
    } finally {
      setBusy(false)
    }
  }

  const remove = async (row: Row) => {
    setDeleteError(undefined)
    try {
      await session.client.request("DELETE", `${props.path}/${row.id}`, { project: true })
      changed(`${props.noun[0]!.toUpperCase()}${props.noun.slice(1)} “${props.nameOf(row)}” deleted.`)
    } catch (failure) {
      if (failure instanceof ApiError) setDeleteError(failure)
    }
  }

  const columns: ReadonlyArray<Column<Row>> = canWrite
    ? [...props.columns, {
      label: "Actions",
      render: (row) => (
        <span class="row-actions">
          <button
            type="button"
            aria-label={`Edit ${props.noun} ${props.nameOf(row)}`}
            onClick={() => {
              setEditing(row)
              setError(undefined)
              setDone(undefined)
              setFormKey((n) => n + 1)
              document.getElementById(`${props.kind}-form`)?.scrollIntoView({ block: "start" })
              requestAnimationFrame(() => (document.querySelector(`#${props.kind}-form input, #${props.kind}-form textarea, #${props.kind}-form select`) as HTMLElement | null)?.focus())
            }}
          >
            Edit
          </button>
          {props.extraActions?.(row, () => changed(""))}
          <ConfirmButton
            label="Delete"
            accessibleLabel={`Delete ${props.noun} ${props.nameOf(row)}`}
            title={`Delete the ${props.noun} “${props.nameOf(row)}”?`}
            confirmLabel="Delete"
            onConfirm={() => remove(row)}
          >
            {props.deleteWarning !== undefined && <p>{props.deleteWarning}</p>}
          </ConfirmButton>
        </span>
      )
    }]
    : props.columns

  return (
    <>
      {done !== undefined && done !== "" && <Notice kind="success">{done}</Notice>}
      {deleteError !== undefined && <ErrorNotice error={deleteError} what={`delete the ${props.noun}`} />}
      {canWrite && (
        <section class="card form" id={`${props.kind}-form`} aria-labelledby={`${props.kind}-form-title`}>
          <h2 id={`${props.kind}-form-title`}>{editing === undefined ? `New ${props.noun}` : `Edit ${props.noun} “${props.nameOf(editing)}”`}</h2>
          <props.Form
            key={formKey}
            row={editing}
            error={error}
            busy={busy}
            onSubmit={save}
            onCancel={() => {
              setEditing(undefined)
              setError(undefined)
              setFormKey((n) => n + 1)
            }}
          />
        </section>
      )}
      <section class="card" aria-labelledby={`${props.kind}-list-title`}>
        <header class="card-header">
          <h2 id={`${props.kind}-list-title`}>{props.title}</h2>
          {props.filters}
        </header>
        {list.error !== undefined && <ErrorNotice error={list.error} what={`list the ${props.title.toLowerCase()}`} />}
        {list.data === undefined ? list.error === undefined && <Loading /> : (
          <>
            <DataTable caption={props.title} captionHidden columns={columns} rows={list.data.data} rowKey={(row) => row.id} empty={`No ${props.noun} yet.`} />
            <Pager
              meta={list.data.meta}
              onPage={(next) => navigate(withQuery(props.location, { page: next }), { replace: true })}
              label={`${props.title} pages`}
            />
          </>
        )}
      </section>
    </>
  )
}
