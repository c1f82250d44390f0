import type { ComponentChildren } from "preact"
import { useState } from "preact/hooks"

/**
 * A chart with a table of the same numbers: two toggle buttons switch between them (the choice is
 * kept while the page lives). `controls` sit beside the title (metric, interval).
 */
export const ChartCard = ({ title, id, chart, table, controls, note }: {
  readonly title: string
  readonly id: string
  readonly chart: ComponentChildren
  readonly table: ComponentChildren
  readonly controls?: ComponentChildren
  readonly note?: ComponentChildren
}) => {
  const [view, setView] = useState<"chart" | "table">("chart")
  return (
    <section class="card" aria-labelledby={`${id}-title`} data-view={view} id={id}>
      <header class="card-header">
        <h2 id={`${id}-title`}>{title}</h2>
        <div class="card-controls">
          {controls}
          <div class="toggle" role="group" aria-label={`${title}: view`}>
            <button type="button" aria-pressed={view === "chart"} onClick={() => setView("chart")}>Chart</button>
            <button type="button" aria-pressed={view === "table"} onClick={() => setView("table")}>Table</button>
          </div>
        </div>
      </header>
      {note}
      {view === "chart" ? chart : table}
    </section>
  )
}
