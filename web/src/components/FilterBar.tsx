import { type Monitor, platformNames, type Platform, type Tag } from "../api/types.ts"
import { type Filters, presets } from "../filters.ts"
import { todayUtc } from "../format.ts"
import { useLoad } from "../load.ts"
import { type Location, navigate, withQuery } from "../router.tsx"
import { projectData, useSession } from "../session-context.tsx"
import { MultiSelect } from "./MultiSelect.tsx"

/**
 * The period picker and the filters of the analytics endpoints (platforms, countries, monitors, tags).
 * Choices go to the page's query (web/src/filters.ts); the page reloads its data from there. The
 * platforms and countries offered are those of the project's monitors.
 */
export const FilterBar = ({ location, filters }: { readonly location: Location; readonly filters: Filters }) => {
  const session = useSession()
  const data = projectData(session)
  const options = useLoad(
    () => Promise.all([data.monitors(), data.tags().catch(() => [] as ReadonlyArray<Tag>)]),
    [session.projectId]
  )
  const monitors: ReadonlyArray<Monitor> = options.data?.[0] ?? []
  const tags = options.data?.[1] ?? []
  const platforms = [...new Set(monitors.flatMap((monitor) => monitor.platforms))]
  const countries = [...new Set(monitors.map((monitor) => monitor.country))].sort()
  const set = (changes: Record<string, string | number | undefined>) => navigate(withQuery(location, { ...changes, page: undefined }), { replace: true })
  const today = todayUtc()

  return (
    <form class="filters" aria-label="Period and filters" onSubmit={(event) => event.preventDefault()}>
      <label class="field-inline">
        <span>Period</span>
        <select
          value={filters.days === null ? "custom" : String(filters.days)}
          onChange={(event) => {
            const value = event.currentTarget.value
            if (value === "custom") set({ days: undefined, start: filters.start, end: filters.end })
            else set({ days: value, start: undefined, end: undefined })
          }}
        >
          {presets.map((days) => <option key={days} value={String(days)}>Last {days} days</option>)}
          {filters.days !== null && !(presets as ReadonlyArray<number>).includes(filters.days) && (
            <option value={String(filters.days)}>Last {filters.days} days</option>
          )}
          <option value="custom">Custom dates</option>
        </select>
      </label>
      {filters.days === null && (
        <>
          <label class="field-inline">
            <span>From</span>
            <input type="date" value={filters.start} max={filters.end} onChange={(event) => event.currentTarget.value !== "" && set({ start: event.currentTarget.value, end: filters.end })} />
          </label>
          <label class="field-inline">
            <span>To</span>
            <input type="date" value={filters.end} min={filters.start} max={today} onChange={(event) => event.currentTarget.value !== "" && set({ start: filters.start, end: event.currentTarget.value })} />
          </label>
        </>
      )}
      <span class="period-text" aria-live="polite">{filters.start} to {filters.end} (UTC)</span>
      <MultiSelect
        label="Platforms"
        options={(platforms.length > 0 ? platforms : Object.keys(platformNames) as Array<Platform>).map((platform) => ({ value: platform, label: platformNames[platform] }))}
        selected={filters.platforms}
        onChange={(values) => set({ platforms: values.join(",") })}
      />
      <MultiSelect
        label="Countries"
        options={countries.map((country) => ({ value: country, label: country }))}
        selected={filters.countries}
        onChange={(values) => set({ countries: values.join(",") })}
      />
      <MultiSelect
        label="Monitors"
        options={monitors.map((monitor) => ({ value: String(monitor.id), label: monitor.name }))}
        selected={filters.monitors.map(String)}
        onChange={(values) => set({ monitors: values.join(",") })}
      />
      <MultiSelect
        label="Tags"
        options={tags.map((tag) => ({ value: String(tag.id), label: tag.name }))}
        selected={filters.tags.map(String)}
        onChange={(values) => set({ tags: values.join(",") })}
      />
    </form>
  )
}
