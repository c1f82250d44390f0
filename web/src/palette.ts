/**
 * Colours told apart with any colour vision: the Okabe-Ito palette. The own brand is always the
 * strong blue, drawn thicker and solid; others take the rest in order, with dash patterns so that
 * lines differ by more than colour.
 */
export const ownColor = "#0072B2"

const others = ["#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#000000", "#999933", "#882255"]
const dashes: ReadonlyArray<ReadonlyArray<number>> = [[6, 3], [2, 3], [10, 4, 2, 4], [4, 4], [1, 2], [12, 3], [6, 2, 2, 2], [3, 6]]

export const otherColor = (index: number) => others[index % others.length]!
export const otherDash = (index: number) => dashes[index % dashes.length]!
