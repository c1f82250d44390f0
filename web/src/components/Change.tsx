import { signed } from "../format.ts"

/**
 * A change against the previous period: an arrow and the signed value, and a "significant" badge
 * (words, not only colour) when the API's test says so. `higherIsBetter` false for positions.
 */
export const Change = ({ value, significant, unit = "", digits = 2, higherIsBetter = true }: {
  readonly value: number | null
  readonly significant?: boolean
  readonly unit?: string
  readonly digits?: number
  readonly higherIsBetter?: boolean
}) => {
  if (value === null) return <span class="change">—</span>
  const direction = value > 0 ? "up" : value < 0 ? "down" : "flat"
  const good = direction === "flat" ? "" : (direction === "up") === higherIsBetter ? "good" : "bad"
  return (
    <span class={`change change-${direction} ${good}`}>
      <span aria-hidden="true">{direction === "up" ? "▲ " : direction === "down" ? "▼ " : ""}</span>
      {signed(value, digits)}{unit}
      {significant === true && <span class="badge badge-significant" title="Significant at 95% (two-proportion z-test)">significant</span>}
    </span>
  )
}
