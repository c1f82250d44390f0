import { useEffect, useRef } from "preact/hooks"
import uPlot from "uplot"
import "uplot/dist/uPlot.min.css"

export interface Line {
  readonly label: string
  readonly color: string
  readonly dash?: ReadonlyArray<number>
  readonly width?: number
  readonly values: ReadonlyArray<number | null>
}

/**
 * A line chart over time (uPlot): `timestamps` are the bucket starts, one value per line and bucket
 * (null leaves a gap). Redrawn when the data change, resized with its container. The container
 * carries `data-drawn` once drawn.
 */
export const TimeChart = ({ label, timestamps, lines, unit = "%", height = 300 }: {
  readonly label: string
  readonly timestamps: ReadonlyArray<string>
  readonly lines: ReadonlyArray<Line>
  readonly unit?: string
  readonly height?: number
}) => {
  const container = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const element = container.current
    if (element === null) return
    const data: uPlot.AlignedData = [
      timestamps.map((timestamp) => Date.parse(timestamp) / 1000),
      ...lines.map((line) => line.values.map((value) => value))
    ] as uPlot.AlignedData
    const chart = new uPlot({
      width: Math.max(320, element.clientWidth),
      height,
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), "Etc/UTC"),
      cursor: { drag: { x: false, y: false } },
      legend: { live: true },
      scales: { x: { time: true } },
      axes: [
        { stroke: "#333", grid: { stroke: "#e5e5e5" } },
        { stroke: "#333", grid: { stroke: "#e5e5e5" }, values: (_, ticks) => ticks.map((tick) => `${tick}${unit}`), size: 60 }
      ],
      series: [
        { label: "Date (UTC)", value: (_, ts) => (ts === null ? "—" : new Date(ts * 1000).toISOString().slice(0, 10)) },
        ...lines.map((line) => ({
          label: line.label,
          stroke: line.color,
          width: line.width ?? 2,
          dash: line.dash === undefined ? undefined : [...line.dash],
          points: { show: timestamps.length <= 40, size: 5, fill: line.color },
          value: (_: uPlot, value: number | null) => (value === null ? "—" : `${value}${unit}`)
        }))
      ]
    }, data, element)
    element.dataset.drawn = "true"
    const observer = new ResizeObserver(() => chart.setSize({ width: Math.max(320, element.clientWidth), height }))
    observer.observe(element)
    return () => {
      observer.disconnect()
      chart.destroy()
      delete element.dataset.drawn
    }
  }, [timestamps, lines, unit, height])
  return <div class="timechart" ref={container} role="img" aria-label={label} />
}
