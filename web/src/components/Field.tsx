import type { ComponentChildren } from "preact"
import type { ErrorBody } from "../api/client.ts"

/** The API's 422 messages for a field: its own, and its items' (`platforms.0`, `aliases.2`). */
export const errorsFor = (errors: ErrorBody["errors"] | undefined, field: string): ReadonlyArray<string> =>
  Object.entries(errors ?? {})
    .filter(([name]) => name === field || name.startsWith(`${field}.`))
    .flatMap(([, messages]) => messages)

/**
 * A labelled form field with the API's validation messages beside it, tied to the input by
 * `aria-describedby` and `aria-invalid` (the input gets `id`, `aria-*` from the render prop).
 */
export const Field = ({ id, label, hint, errors, children }: {
  readonly id: string
  readonly label: string
  readonly hint?: ComponentChildren
  readonly errors: ReadonlyArray<string>
  readonly children: (props: { id: string; "aria-invalid": "true" | undefined; "aria-describedby": string | undefined }) => ComponentChildren
}) => {
  const described = [hint === undefined ? "" : `${id}-hint`, errors.length === 0 ? "" : `${id}-errors`].filter((s) => s !== "").join(" ")
  return (
    <div class={errors.length > 0 ? "field field-invalid" : "field"}>
      <label for={id}>{label}</label>
      {children({ id, "aria-invalid": errors.length > 0 ? "true" : undefined, "aria-describedby": described === "" ? undefined : described })}
      {hint !== undefined && <small id={`${id}-hint`} class="hint">{hint}</small>}
      {errors.length > 0 && (
        <ul id={`${id}-errors`} class="field-errors">
          {errors.map((message) => <li key={message}>{message}</li>)}
        </ul>
      )}
    </div>
  )
}

/** A group of checkboxes (platforms, tags, abilities) as one field with its messages. */
export const CheckGroup = ({ id, legend, options, selected, onChange, errors, columns = false }: {
  readonly id: string
  readonly legend: string
  readonly options: ReadonlyArray<{ readonly value: string; readonly label: string }>
  readonly selected: ReadonlyArray<string>
  readonly onChange: (selected: ReadonlyArray<string>) => void
  readonly errors: ReadonlyArray<string>
  readonly columns?: boolean
}) => (
  <fieldset class={errors.length > 0 ? "field field-invalid checkgroup" : "field checkgroup"} aria-describedby={errors.length > 0 ? `${id}-errors` : undefined}>
    <legend>{legend}</legend>
    <div class={columns ? "checks checks-columns" : "checks"}>
      {options.length === 0 && <span class="muted">None yet.</span>}
      {options.map((option) => (
        <label key={option.value} class="check">
          <input
            type="checkbox"
            name={id}
            value={option.value}
            checked={selected.includes(option.value)}
            onChange={(event) =>
              onChange(event.currentTarget.checked ? [...selected, option.value] : selected.filter((value) => value !== option.value))}
          />
          {option.label}
        </label>
      ))}
    </div>
    {errors.length > 0 && (
      <ul id={`${id}-errors`} class="field-errors">
        {errors.map((message) => <li key={message}>{message}</li>)}
      </ul>
    )}
  </fieldset>
)
