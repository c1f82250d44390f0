/** How numbers and dates are shown. Values come from the API already rounded; they are shown as given. */

export const dash = "—"

/** A percentage of the API (round2): `12.50%`. */
export const percent = (value: number | null | undefined, digits = 2) =>
  value === null || value === undefined ? dash : `${value.toFixed(digits)}%`

export const number = (value: number | null | undefined, digits = 2) =>
  value === null || value === undefined ? dash : value.toFixed(digits)

export const integer = (value: number | null | undefined) =>
  value === null || value === undefined ? dash : value.toLocaleString("en-US")

/** A signed difference: `+1.20`, `−0.50`, `0.00`. */
export const signed = (value: number | null | undefined, digits = 2) => {
  if (value === null || value === undefined) return dash
  const text = Math.abs(value).toFixed(digits)
  return value > 0 ? `+${text}` : value < 0 ? `−${text}` : text
}

/** `2026-11-21 14:26 UTC` */
export const dateTime = (iso: string | null | undefined) =>
  iso === null || iso === undefined ? dash : `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`

export const date = (iso: string | null | undefined) => (iso === null || iso === undefined ? dash : iso.slice(0, 10))

/** Today's UTC date, `YYYY-MM-DD` (the API's `end_date` may not be later). */
export const todayUtc = () => new Date().toISOString().slice(0, 10)

export const addDays = (day: string, days: number) =>
  new Date(Date.parse(`${day}T00:00:00.000Z`) + days * 86_400_000).toISOString().slice(0, 10)
