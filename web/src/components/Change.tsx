import { signed } from "../format.ts"

/** What the significance mark says, in words: on hover, and to screen readers. */
export const significanceMeaning = "significant change against the previous period (95%, two-proportion z-test)"

/**
 * The one mark of a significant change: ✱, and nothing else means it (a change's direction is its sign,
 * a sorted column's order an arrow). Each place that shows it explains it beside it (SignificanceKey).
 */
export const SignificanceMark = () => (
  <abbr class="significance" title={`✱ ${significanceMeaning}`}>
    <span aria-hidden="true">✱</span>
    <span class="visually-hidden"> significant</span>
  </abbr>
)

/** The explanation of the mark, where the mark is shown: `✱ significant change against ...`, after `lead`. */
export const SignificanceKey = ({ id, lead = "✱" }: { readonly id?: string; readonly lead?: string }) => (
  <span class="significance-key" id={id}>{lead} {significanceMeaning}</span>
)

/**
 * A change against the previous period: the signed value and its unit, coloured good or bad (never by
 * colour alone: the sign says the direction), and the significance mark when the API's test says so.
 * No value (null): a dash, with `blank` saying why on hover. `higherIsBetter` false for positions.
 */
export const Change = ({ value, significant, unit = "", digits = 2, higherIsBetter = true, blank }: {
  readonly value: number | null
  readonly significant?: boolean
  readonly unit?: string
  readonly digits?: number
  readonly higherIsBetter?: boolean
  readonly blank?: string
}) => {
  if (value === null) return <span class="change" title={blank}>—</span>
  const direction = value > 0 ? "up" : value < 0 ? "down" : "flat"
  const good = direction === "flat" ? "" : (direction === "up") === higherIsBetter ? "good" : "bad"
  return (
    <span class={`change change-${direction} ${good}`}>
      {signed(value, digits)}{unit}
      {significant === true && <SignificanceMark />}
    </span>
  )
}
