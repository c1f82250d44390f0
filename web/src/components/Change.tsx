import { integer, percent, signed } from "../format.ts"
import { isSmallSample, percentage, SMALL_SAMPLE } from "../stats.ts"

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
 * The counts a change rests on. `current` and `previous` are the denominators of the two periods (answers
 * for visibility, all brands' mentions for share of voice, the brand's mentions for a mean), in `noun`.
 * For a proportion, `previousCount` is its numerator over the previous period: the page shows the
 * previous value it makes (`was 48.00%`) with its counts (`240 of 500`). `sample` is what the small-sample
 * rule reads, in its own words: the smaller sample of each period.
 */
export interface ChangeBasis {
  readonly current: number
  readonly previous: number
  readonly previousCount?: number
  readonly noun: string
  readonly sample: { readonly current: number; readonly previous: number; readonly noun: string }
}

/** The words of the small-sample flag, on hover and for screen readers. */
export const smallSampleMeaning = (noun: string) =>
  `fewer than ${SMALL_SAMPLE} ${noun} in this period or the previous one: a change this size may be chance`

/** The flag of a change resting on few answers (web/src/stats.ts, SMALL_SAMPLE). */
export const SmallSampleFlag = ({ noun }: { readonly noun: string }) => (
  <span class="badge badge-small" title={`Small sample: ${smallSampleMeaning(noun)}`}>small sample</span>
)

/**
 * A change against the previous period: the signed value and its unit, coloured good or bad (never by
 * colour alone: the sign says the direction), and the significance mark when the API's test says so.
 * No value (null): a dash, with `blank` saying why on hover. `higherIsBetter` false for positions.
 * With its `basis`, the counts it rests on below it, and the small-sample flag when either period holds
 * fewer than SMALL_SAMPLE of them.
 */
export const Change = ({ value, significant, unit = "", digits = 2, higherIsBetter = true, blank, basis }: {
  readonly value: number | null
  readonly significant?: boolean
  readonly unit?: string
  readonly digits?: number
  readonly higherIsBetter?: boolean
  readonly blank?: string
  readonly basis?: ChangeBasis
}) => {
  if (value === null) return <span class="change" title={blank}>—</span>
  const direction = value > 0 ? "up" : value < 0 ? "down" : "flat"
  const good = direction === "flat" ? "" : (direction === "up") === higherIsBetter ? "good" : "bad"
  const change = (
    <span class={`change change-${direction} ${good}`}>
      {signed(value, digits)}{unit}
      {significant === true && <SignificanceMark />}
    </span>
  )
  if (basis === undefined) return change
  return (
    <span class="change-with-basis">
      {change}
      <Basis basis={basis} />
      {isSmallSample(basis.sample.current, basis.sample.previous) && <SmallSampleFlag noun={basis.sample.noun} />}
    </span>
  )
}

/** `was 48.00%` and `240 of 500` (a proportion), or `240 → 356 mentions` (a mean's sample sizes). */
const Basis = ({ basis }: { readonly basis: ChangeBasis }) =>
  basis.previousCount === undefined
    ? <span class="change-basis" data-basis="sizes">{integer(basis.previous)} → {integer(basis.current)} {basis.noun}</span>
    : (
      <span class="change-basis" data-basis="previous" title={`Previous period: ${integer(basis.previousCount)} of ${integer(basis.previous)} ${basis.noun}`}>
        <span class="block">was {percent(percentage(basis.previousCount, basis.previous))}</span>{" "}
        <span class="block">{integer(basis.previousCount)} of {integer(basis.previous)}</span>
      </span>
    )
