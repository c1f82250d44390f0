import { useEffect, useRef, useState } from "preact/hooks"
import type { Interval95 } from "../api/types.ts"
import { percent } from "../format.ts"
import { otherColor, ownColor } from "../palette.ts"
import { SignificanceKey, significanceMeaning } from "./Change.tsx"

export interface WhiskerRow {
  readonly id: number
  readonly name: string
  readonly own: boolean
  readonly value: number | null
  readonly ci: Interval95 | null
  readonly change: number | null
  readonly significant: boolean
}

/** Below this width (CSS pixels) a brand's name goes above its whisker instead of beside it. */
const NARROW = 460
const VALUE = 64
/** A character of a label, about, at its 12.5 px. */
const CHAR = 7

/** The rows' geometry for a drawing `width` pixels wide: drawn at 1:1, so text keeps its size on any screen. */
const layout = (width: number) => {
  const narrow = width < NARROW
  const label = narrow ? 0 : Math.min(190, Math.round(width * 0.34))
  return {
    narrow,
    row: narrow ? 44 : 30,
    plotLeft: narrow ? 10 : label,
    plotRight: width - VALUE,
    /** The characters a name may take before it is cut. */
    nameChars: narrow ? Math.floor((width - VALUE) / CHAR) : Math.floor((label - 14) / CHAR)
  }
}

/**
 * Percentages per brand as dots with their 95% interval as whiskers (SVG, drawn at the width it is
 * given, so that its text stays readable from a phone to a wide screen: on a narrow one each name
 * goes above its whisker). The own brand is drawn in the strong blue with a diamond and a bold label;
 * a significant change is marked by ✱ after the name (explained in the legend and each row's tooltip).
 * The numbers are also in the table view.
 */
export const Whiskers = ({ heading, title, rows }: { readonly heading: string; readonly title: string; readonly rows: ReadonlyArray<WhiskerRow> }) => {
  const figure = useRef<HTMLElement>(null)
  const [width, setWidth] = useState(560)
  useEffect(() => {
    const element = figure.current
    if (element === null) return
    const measure = () => setWidth(Math.max(240, Math.floor(element.clientWidth)))
    measure()
    const observer = new ResizeObserver(measure)
    observer.observe(element)
    return () => observer.disconnect()
  }, [])

  const highest = Math.max(5, ...rows.map((row) => row.ci?.high ?? row.value ?? 0))
  // Ticks on round numbers: the smallest step of these that needs at most 5 of them.
  const step = [1, 2, 5, 10, 20, 25].find((candidate) => Math.ceil(highest / candidate) <= 5) ?? 25
  const max = Math.min(100, Math.ceil(highest / step) * step)
  const { narrow, row: ROW, plotLeft, plotRight, nameChars } = layout(width)
  const x = (value: number) => plotLeft + (Math.max(0, Math.min(max, value)) / max) * (plotRight - plotLeft)
  const height = rows.length * ROW + 28
  const ticks = Array.from({ length: Math.round(max / step) + 1 }, (_, i) => i * step)
  let competitor = 0
  return (
    <figure class="whiskers" ref={figure}>
      <h3>{heading}</h3>
      <svg viewBox={`0 0 ${width} ${height}`} width={width} height={height} role="img" aria-label={`${title}, with 95% intervals`}>
        {ticks.map((tick) => (
          <g key={tick} class="tick">
            <line x1={x(tick)} x2={x(tick)} y1={4} y2={height - 22} />
            <text x={x(tick)} y={height - 6} text-anchor="middle">{`${Math.round(tick)}%`}</text>
          </g>
        ))}
        {rows.map((row, index) => {
          const top = index * ROW
          // Narrow: the name on the row's first line, the whisker on its second.
          const y = narrow ? top + 31 : top + ROW / 2 + 4
          const labelY = narrow ? top + 14 : y + 4
          const color = row.own ? ownColor : otherColor(competitor++)
          const marked = row.significant && row.change !== null
          const name = row.name.length > nameChars ? `${row.name.slice(0, Math.max(1, nameChars - 1))}…` : row.name
          return (
            <g key={row.id} class={row.own ? "row own" : "row"}>
              <title>
                {`${row.name}${row.own ? " (own brand)" : ""}: ${percent(row.value)}` +
                  (row.ci === null ? "" : `, 95% interval ${percent(row.ci.low)} to ${percent(row.ci.high)}`) +
                  (marked ? `; ✱ ${significanceMeaning}` : "")}
              </title>
              {row.own && <rect x={0} y={top + 1} width={width} height={ROW - 2} class="own-band" />}
              <text x={narrow ? plotLeft : plotLeft - 10} y={labelY} text-anchor={narrow ? "start" : "end"} class="label">{name}{marked ? " ✱" : ""}</text>
              {row.ci !== null && (
                <g stroke={color} stroke-width={row.own ? 3 : 2}>
                  <line x1={x(row.ci.low)} x2={x(row.ci.high)} y1={y} y2={y} />
                  <line x1={x(row.ci.low)} x2={x(row.ci.low)} y1={y - 6} y2={y + 6} />
                  <line x1={x(row.ci.high)} x2={x(row.ci.high)} y1={y - 6} y2={y + 6} />
                </g>
              )}
              {row.value !== null && (row.own
                ? <rect x={x(row.value) - 6} y={y - 6} width={12} height={12} fill={color} transform={`rotate(45 ${x(row.value)} ${y})`} />
                : <circle cx={x(row.value)} cy={y} r={5.5} fill={color} />)}
              <text x={width - 4} y={y + 4} text-anchor="end" class="value">{percent(row.value)}</text>
            </g>
          )
        })}
      </svg>
    </figure>
  )
}

/** The key to the whisker charts, shown once below them. */
export const WhiskerLegend = () => (
  <p class="whisker-legend">
    <span><svg width="14" height="14" aria-hidden="true"><rect x="3" y="3" width="8" height="8" fill={ownColor} transform="rotate(45 7 7)" /></svg> own brand</span>
    <span><svg width="26" height="14" aria-hidden="true"><line x1="2" x2="24" y1="7" y2="7" stroke="#555" stroke-width="2" /><line x1="2" x2="2" y1="2" y2="12" stroke="#555" stroke-width="2" /><line x1="24" x2="24" y1="2" y2="12" stroke="#555" stroke-width="2" /></svg> 95% interval</span>
    <SignificanceKey lead="✱ after a name:" />
  </p>
)
