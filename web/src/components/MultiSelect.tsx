import { useRef } from "preact/hooks"
import type { TargetedKeyboardEvent } from "preact"

export interface Option {
  readonly value: string
  readonly label: string
}

/**
 * A drop-down of checkboxes (a native details element, so it opens with Enter or Space; Escape
 * closes it). No box checked means no filter: "All".
 */
export const MultiSelect = ({ label, options, selected, onChange }: {
  readonly label: string
  readonly options: ReadonlyArray<Option>
  readonly selected: ReadonlyArray<string>
  readonly onChange: (selected: ReadonlyArray<string>) => void
}) => {
  const details = useRef<HTMLDetailsElement>(null)
  const chosen = options.filter((option) => selected.includes(option.value))
  const summary = chosen.length === 0 ? "All" : chosen.length === 1 ? chosen[0]!.label : `${chosen.length} selected`
  const onKeyDown = (event: TargetedKeyboardEvent<HTMLDetailsElement>) => {
    if (event.key === "Escape" && details.current?.open === true) {
      details.current.open = false
      details.current.querySelector("summary")?.focus()
    }
  }
  const toggle = (value: string, checked: boolean) =>
    onChange(checked ? [...selected, value] : selected.filter((item) => item !== value))
  return (
    <details class="multiselect" ref={details} onKeyDown={onKeyDown}>
      <summary>
        <span class="multiselect-label">{label}</span> <span class="multiselect-value">{summary}</span>
      </summary>
      <fieldset>
        <legend class="visually-hidden">{label}</legend>
        {options.length === 0 && <p class="muted">None in this project.</p>}
        {options.map((option) => (
          <label key={option.value} class="check">
            <input
              type="checkbox"
              value={option.value}
              checked={selected.includes(option.value)}
              onChange={(event) => toggle(option.value, event.currentTarget.checked)}
            />
            {option.label}
          </label>
        ))}
        {selected.length > 0 && <button type="button" class="link" onClick={() => onChange([])}>Clear</button>}
      </fieldset>
    </details>
  )
}
