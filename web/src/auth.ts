import { ApiError, makeClient } from "./api/client.ts"
import type { Me } from "./api/types.ts"

export const refusedMessage = "Your key was refused: it has been revoked, has expired or is unknown. Sign in with a valid key."

/** Asks GET /me with a key: who it is, or why not. */
export const checkKey = async (key: string): Promise<{ me: Me } | { message: string }> => {
  try {
    const client = makeClient(key, () => null, () => {})
    return { me: (await client.get<{ data: Me }>("/me")).data }
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return { message: refusedMessage }
    if (error instanceof ApiError) return { message: `Could not sign in: ${error.message}` }
    throw error
  }
}
