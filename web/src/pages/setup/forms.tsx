import { useState } from "preact/hooks"
import { type Brand, classifications, type Monitor, platformNames, platforms, type Prompt, schedules, type Segment, type Tag } from "../../api/types.ts"
import { CheckGroup, errorsFor, Field } from "../../components/Field.tsx"
import { type FormProps, SetupForm } from "./Section.tsx"

const lines = (text: string) => text.split("\n").map((line) => line.trim()).filter((line) => line !== "")

export const MonitorForm = (props: FormProps<Monitor>) => {
  const { error, row } = props
  const [name, setName] = useState(row?.name ?? "")
  const [country, setCountry] = useState(row?.country ?? "")
  const [chosen, setChosen] = useState<ReadonlyArray<string>>(row?.platforms ?? [])
  const [schedule, setSchedule] = useState<string>(row?.schedule ?? "daily")
  const [active, setActive] = useState(row?.active ?? true)
  const [simulated, setSimulated] = useState(row?.simulated ?? false)
  const errors = error?.body.errors
  const simulatedErrors = errorsFor(errors, "simulated")
  return (
    <SetupForm props={props} noun="monitor" body={() => ({ name, country, platforms: chosen, schedule, active, simulated })}>
      <div class="form-grid">
        <Field id="monitor-name" label="Name" errors={errorsFor(errors, "name")}>
          {(p) => <input {...p} value={name} onInput={(e) => setName(e.currentTarget.value)} />}
        </Field>
        <Field id="monitor-country" label="Country" hint="Two letters, ISO 3166-1 (US, DE, FR…)" errors={errorsFor(errors, "country")}>
          {(p) => <input {...p} value={country} maxLength={8} class="short" onInput={(e) => setCountry(e.currentTarget.value)} />}
        </Field>
        <Field id="monitor-schedule" label="Schedule" errors={errorsFor(errors, "schedule")}>
          {(p) => (
            <select {...p} value={schedule} onChange={(e) => setSchedule(e.currentTarget.value)}>
              {schedules.map((value) => <option key={value} value={value}>{value}</option>)}
            </select>
          )}
        </Field>
        <div class="field">
          <label class="check"><input type="checkbox" checked={active} onChange={(e) => setActive(e.currentTarget.checked)} /> Active (asked on its schedule)</label>
          {errorsFor(errors, "active").map((message) => <p key={message} class="field-errors">{message}</p>)}
        </div>
      </div>
      <CheckGroup
        id="monitor-platforms"
        legend="Platforms"
        options={platforms.map((platform) => ({ value: platform, label: platformNames[platform] }))}
        selected={chosen}
        onChange={setChosen}
        errors={errorsFor(errors, "platforms")}
        columns
      />
      <div class={simulatedErrors.length > 0 ? "field field-invalid simulated-field" : "field simulated-field"}>
        <label class="check">
          <input
            type="checkbox"
            id="monitor-simulated"
            checked={simulated}
            aria-describedby={["monitor-simulated-hint", simulatedErrors.length > 0 ? "monitor-simulated-errors" : ""].join(" ").trim()}
            aria-invalid={simulatedErrors.length > 0 ? "true" : undefined}
            onChange={(e) => setSimulated(e.currentTarget.checked)}
          />{" "}
          Simulated answers (to try the service out)
        </label>
        <small id="monitor-simulated-hint" class="hint">
          The collector’s simulated platform writes this monitor’s answers itself instead of asking the AI platforms:
          no provider key needed, nothing spent, but the answers are made up. Each starts with “[Simulated answer]”
          and is marked simulated, yet it counts in this project’s analytics like a real one, so keep it to a trial
          project. Only this monitor’s runs are simulated; a change applies to its next runs, not to those waiting.
        </small>
        {simulatedErrors.length > 0 && (
          <ul id="monitor-simulated-errors" class="field-errors">
            {simulatedErrors.map((message) => <li key={message}>{message}</li>)}
          </ul>
        )}
      </div>
    </SetupForm>
  )
}

export const PromptForm = ({ monitors, tags, ...props }: FormProps<Prompt> & {
  readonly monitors: ReadonlyArray<Monitor>
  readonly tags: ReadonlyArray<Tag>
}) => {
  const { error, row } = props
  const [monitor, setMonitor] = useState(String(row?.monitor_id ?? monitors[0]?.id ?? ""))
  const [text, setText] = useState(row?.text ?? "")
  const [chosen, setChosen] = useState<ReadonlyArray<string>>(row?.tags.map((tag) => String(tag.id)) ?? [])
  const errors = error?.body.errors
  return (
    <SetupForm props={props} noun="prompt" body={() => ({ monitor_id: monitor === "" ? null : Number(monitor), text, tags: chosen.map(Number) })}>
      <Field id="prompt-monitor" label="Monitor" errors={errorsFor(errors, "monitor_id")}>
        {(p) => (
          <select {...p} value={monitor} onChange={(e) => setMonitor(e.currentTarget.value)}>
            {monitors.length === 0 && <option value="">Create a monitor first</option>}
            {monitors.map((item) => <option key={item.id} value={String(item.id)}>{item.name}</option>)}
          </select>
        )}
      </Field>
      <Field id="prompt-text" label="Question" hint="As a buyer would ask it; up to 2,000 characters." errors={errorsFor(errors, "text")}>
        {(p) => <textarea {...p} rows={3} value={text} onInput={(e) => setText(e.currentTarget.value)} />}
      </Field>
      <CheckGroup
        id="prompt-tags"
        legend="Tags"
        options={tags.map((tag) => ({ value: String(tag.id), label: tag.name }))}
        selected={chosen}
        onChange={setChosen}
        errors={errorsFor(errors, "tags")}
      />
    </SetupForm>
  )
}

export const TagForm = (props: FormProps<Tag>) => {
  const { error, row } = props
  const [name, setName] = useState(row?.name ?? "")
  const [color, setColor] = useState(row?.color ?? "#6b7280")
  const errors = error?.body.errors
  return (
    <SetupForm props={props} noun="tag" body={() => ({ name, color })}>
      <div class="form-grid">
        <Field id="tag-name" label="Name" errors={errorsFor(errors, "name")}>
          {(p) => <input {...p} value={name} onInput={(e) => setName(e.currentTarget.value)} />}
        </Field>
        <Field id="tag-color" label="Colour" hint="#rrggbb" errors={errorsFor(errors, "color")}>
          {(p) => (
            <span class="color-field">
              <input type="color" value={/^#[0-9a-f]{6}$/i.test(color) ? color : "#6b7280"} aria-label="Pick a colour" onInput={(e) => setColor(e.currentTarget.value)} />
              <input {...p} value={color} class="short" onInput={(e) => setColor(e.currentTarget.value)} />
            </span>
          )}
        </Field>
      </div>
    </SetupForm>
  )
}

export const BrandForm = ({ segments, ...props }: FormProps<Brand> & { readonly segments: ReadonlyArray<Segment> }) => {
  const { error, row } = props
  const [name, setName] = useState(row?.name ?? "")
  const [aliases, setAliases] = useState(row?.aliases.join("\n") ?? "")
  const [domains, setDomains] = useState(row?.domains.join("\n") ?? "")
  const [classification, setClassification] = useState<string>(row?.classification ?? "competitor")
  const [chosen, setChosen] = useState<ReadonlyArray<string>>(row?.segment_ids.map(String) ?? [])
  const errors = error?.body.errors
  return (
    <SetupForm props={props} noun="brand" body={() => ({ name, aliases: lines(aliases), domains: lines(domains), classification, segment_ids: chosen.map(Number) })}>
      <div class="form-grid">
        <Field id="brand-name" label="Name" errors={errorsFor(errors, "name")}>
          {(p) => <input {...p} value={name} onInput={(e) => setName(e.currentTarget.value)} />}
        </Field>
        <Field id="brand-classification" label="Classification" hint="Ignored brands are not counted" errors={errorsFor(errors, "classification")}>
          {(p) => (
            <select {...p} value={classification} onChange={(e) => setClassification(e.currentTarget.value)}>
              {classifications.map((value) => <option key={value} value={value}>{value}</option>)}
            </select>
          )}
        </Field>
        <Field id="brand-aliases" label="Aliases" hint="One a line" errors={errorsFor(errors, "aliases")}>
          {(p) => <textarea {...p} rows={3} value={aliases} onInput={(e) => setAliases(e.currentTarget.value)} />}
        </Field>
        <Field id="brand-domains" label="Domains" hint="One a line, e.g. example.com" errors={errorsFor(errors, "domains")}>
          {(p) => <textarea {...p} rows={3} value={domains} onInput={(e) => setDomains(e.currentTarget.value)} />}
        </Field>
      </div>
      <CheckGroup
        id="brand-segments"
        legend="Segments"
        options={segments.map((segment) => ({ value: String(segment.id), label: segment.name }))}
        selected={chosen}
        onChange={setChosen}
        errors={errorsFor(errors, "segment_ids")}
      />
    </SetupForm>
  )
}

export const SegmentForm = (props: FormProps<Segment>) => {
  const { error, row } = props
  const [name, setName] = useState(row?.name ?? "")
  return (
    <SetupForm props={props} noun="segment" body={() => ({ name })}>
      <Field id="segment-name" label="Name" errors={errorsFor(error?.body.errors, "name")}>
        {(p) => <input {...p} value={name} onInput={(e) => setName(e.currentTarget.value)} />}
      </Field>
    </SetupForm>
  )
}
