import { useEffect, useRef } from "preact/hooks"
import uPlot from "uplot"
import "uplot/dist/uPlot.min.css"
import type { Interval, Interval95 } from "../api/types.ts"

export interface Line {
  readonly label: string
  readonly color: string
  readonly dash?: ReadonlyArray<number>
  readonly width?: number
  readonly values: ReadonlyArray<number | null>
  /** The 95% interval of each value, drawn as a band around the line when the chart shows bands. */
  readonly bands?: ReadonlyArray<Interval95 | null>
}

/** The limits of the value axis: a percentage is drawn within 0–100, a position from 1. */
export interface Bounds {
  readonly min: number
  readonly max?: number
}

/** Half a bucket of each interval, in seconds: the room left on each side of the first and last bucket. */
const halfBucket: Readonly<Record<Interval, number>> = { day: 43_200, week: 302_400, month: 1_314_000, year: 15_768_000 }

/** The room a time label needs, in CSS pixels, gap included: `2026-11-21`, `2026-11`, `2026`. */
const labelSpace: Readonly<Record<Interval, number>> = { day: 92, week: 92, month: 68, year: 52 }

/** A bucket's label: its first day, as every date of the dashboard is written (ISO 8601, UTC). */
const bucketLabel = (interval: Interval, seconds: number) => {
  const iso = new Date(seconds * 1000).toISOString()
  return interval === "month" ? iso.slice(0, 7) : interval === "year" ? iso.slice(0, 4) : iso.slice(0, 10)
}

/** The smallest of 1, 2, 2.5 and 5 times a power of ten that is at least `value` (> 0). */
const niceStep = (value: number) => {
  const power = 10 ** Math.floor(Math.log10(value))
  return ([1, 2, 2.5, 5, 10].find((factor) => factor * power >= value) ?? 10) * power
}

/** The value axis: from `bounds.min` up to a round number above the highest value, never past `bounds.max`. */
const valueRange = (bounds: Bounds, highest: number | undefined): [number, number] => {
  if (highest === undefined || highest <= bounds.min) return [bounds.min, bounds.max ?? bounds.min + 1]
  const step = niceStep((highest - bounds.min) / 5)
  const top = bounds.min + Math.ceil((highest - bounds.min) / step) * step
  return [bounds.min, bounds.max === undefined ? top : Math.min(bounds.max, top)]
}

/** The indexes of values drawn as no line (both neighbours empty): they get a dot, or they would not show. */
const isolated = (values: ReadonlyArray<number | null>) =>
  values.flatMap((value, index) => (value !== null && values[index - 1] == null && values[index + 1] == null ? [index] : []))

/** `#rrggbb` as `rgba(...)` with this opacity. */
const translucent = (color: string, alpha: number) =>
  `rgba(${Number.parseInt(color.slice(1, 3), 16)}, ${Number.parseInt(color.slice(3, 5), 16)}, ${Number.parseInt(color.slice(5, 7), 16)}, ${alpha})`

/**
 * A line chart over time (uPlot): `timestamps` are the bucket starts of `interval`, one value per line
 * and bucket (null leaves a gap). The time axis is labelled with the buckets' own dates, as many as fit
 * (never hours); the value axis starts at `bounds.min` and never passes `bounds.max`; the first and last
 * buckets sit half a bucket inside the plot, and a value with no neighbour gets a dot. With `showBands`,
 * each line's `bands` are drawn beneath it. Redrawn when the data change, resized with its container.
 *
 * Once drawn, the container carries what was drawn, for tests and tools: `data-drawn`, `data-x-range`
 * and `data-y-range` (the axes' ends), `data-x-labels` and `data-y-labels` (the tick labels),
 * `data-buckets`, and `data-bands` (how many lines have a band drawn).
 */
export const TimeChart = ({ label, timestamps, interval, lines, unit = "%", bounds = { min: 0, max: 100 }, showBands = false, height = 300 }: {
  readonly label: string
  readonly timestamps: ReadonlyArray<string>
  readonly interval: Interval
  readonly lines: ReadonlyArray<Line>
  readonly unit?: string
  readonly bounds?: Bounds
  readonly showBands?: boolean
  readonly height?: number
}) => {
  const container = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const element = container.current
    if (element === null) return
    const xs = timestamps.map((timestamp) => Date.parse(timestamp) / 1000)
    const data = [xs, ...lines.map((line) => [...line.values])] as uPlot.AlignedData
    const banded = showBands ? lines.filter((line) => line.bands !== undefined) : []
    const drawn = [
      ...lines.flatMap((line) => line.values.filter((value): value is number => value !== null)),
      ...banded.flatMap((line) => line.bands!.flatMap((band) => (band === null ? [] : [band.high])))
    ]
    const yRange = valueRange(bounds, drawn.length === 0 ? undefined : Math.max(...drawn))
    const pad = halfBucket[interval]
    const xRange: [number, number] = xs.length === 0 ? [0, 1] : [xs[0]! - pad, xs[xs.length - 1]! + pad]
    let xLabels: Array<string> = []
    let yLabels: Array<string> = []
    const format = (value: number) => `${Number(value.toFixed(2))}${unit}`

    /** Each band as a shape between its lows and highs, beneath the lines; a lone bucket's as a bar. */
    const drawBands = (u: uPlot) => {
      const ctx = u.ctx
      ctx.save()
      ctx.beginPath()
      ctx.rect(u.bbox.left, u.bbox.top, u.bbox.width, u.bbox.height)
      ctx.clip()
      for (const line of banded) {
        ctx.fillStyle = translucent(line.color, 0.16)
        const x = (index: number) => u.valToPos(xs[index]!, "x", true)
        const y = (value: number) => u.valToPos(value, "y", true)
        let run: Array<number> = []
        const flush = () => {
          if (run.length === 1) {
            const band = line.bands![run[0]!]!
            const half = 4 * devicePixelRatio
            ctx.fillRect(x(run[0]!) - half, y(band.high), 2 * half, y(band.low) - y(band.high))
          } else if (run.length > 1) {
            ctx.beginPath()
            run.forEach((index, n) => (n === 0 ? ctx.moveTo(x(index), y(line.bands![index]!.high)) : ctx.lineTo(x(index), y(line.bands![index]!.high))))
            for (const index of [...run].reverse()) ctx.lineTo(x(index), y(line.bands![index]!.low))
            ctx.closePath()
            ctx.fill()
          }
          run = []
        }
        line.bands!.forEach((band, index) => (band === null ? flush() : run.push(index)))
        flush()
      }
      ctx.restore()
    }

    const record = (u: uPlot) => {
      element.dataset.xRange = JSON.stringify([u.scales.x!.min, u.scales.x!.max])
      element.dataset.yRange = JSON.stringify([u.scales.y!.min, u.scales.y!.max])
      element.dataset.xLabels = JSON.stringify(xLabels)
      element.dataset.yLabels = JSON.stringify(yLabels)
      element.dataset.buckets = String(xs.length)
      element.dataset.bands = String(banded.length)
      element.dataset.drawn = "true"
    }

    const chart = new uPlot({
      width: Math.max(240, element.clientWidth),
      height,
      // Room on the right for the latest bucket's label, centred on its tick.
      padding: [12, interval === "year" ? 24 : 40, 0, 0],
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), "Etc/UTC"),
      cursor: { drag: { x: false, y: false } },
      legend: { live: true },
      scales: { x: { time: true, range: () => xRange }, y: { range: () => yRange } },
      axes: [
        {
          stroke: "#333",
          grid: { stroke: "#e5e5e5" },
          // Ticks on the buckets themselves, every n-th so that their labels fit, the latest always labelled.
          splits: (u) => {
            const width = u.bbox.width / devicePixelRatio
            const every = Math.max(1, Math.ceil((xs.length * labelSpace[interval]) / Math.max(width, 1)))
            return xs.filter((_, index) => (xs.length - 1 - index) % every === 0)
          },
          values: (_, splits) => (xLabels = splits.map((split) => bucketLabel(interval, split)))
        },
        {
          stroke: "#333",
          grid: { stroke: "#e5e5e5" },
          values: (_, ticks) => (yLabels = ticks.map(format)),
          size: 60
        }
      ],
      hooks: { drawAxes: [drawBands], draw: [record] },
      series: [
        {
          label: interval === "day" ? "Date (UTC)" : `${interval[0]!.toUpperCase()}${interval.slice(1)} of (UTC)`,
          value: (_, ts) => (ts === null ? "—" : bucketLabel(interval, ts))
        },
        ...lines.map((line) => ({
          label: line.label,
          stroke: line.color,
          width: line.width ?? 2,
          dash: line.dash === undefined ? undefined : [...line.dash],
          points: {
            // Dots where buckets are at least 12 px apart; closer, only the values a line cannot show get one.
            show: (u: uPlot) => u.bbox.width / devicePixelRatio / Math.max(1, xs.length) >= 12,
            filter: (_: uPlot, __: number, show: boolean) => (show ? null : isolated(line.values)),
            // Bigger for the thicker (own) line, so that its dot still shows under another's on the same value.
            size: (line.width ?? 2) > 2 ? 10 : 7,
            fill: line.color
          },
          value: (_: uPlot, value: number | null, __: number, index: number | null) => {
            if (value === null) return "—"
            const band = showBands && index !== null ? line.bands?.[index] : undefined
            return band === undefined || band === null ? format(value) : `${format(value)} (95%: ${format(band.low)} – ${format(band.high)})`
          }
        }))
      ]
    }, data, element)
    const observer = new ResizeObserver(() => chart.setSize({ width: Math.max(240, element.clientWidth), height }))
    observer.observe(element)
    return () => {
      observer.disconnect()
      chart.destroy()
      delete element.dataset.drawn
    }
  }, [timestamps, lines, interval, unit, bounds.min, bounds.max, showBands, height])
  return <div class="timechart" ref={container} role="img" aria-label={label} />
}
