/**
 * A developer's preview of the dashboard on the browser tests' data: builds it, starts the real
 * server on a fresh embedded database, makes an organization and a key with the CLI, seeds a
 * demo-like project through the API, and prints the address and the key. Ctrl-C stops it.
 *
 *   node --import tsx test/browser/support/preview.ts [days]
 */
import { buildWeb } from "../../../scripts/build-web.ts"
import { seedProject } from "./seed.ts"
import { startRealServer } from "./server.ts"

const days = Number(process.argv[2] ?? 60)
await buildWeb()
const server = await startRealServer()
console.log(`server at ${server.baseUrl}`)
const org = JSON.parse(await server.cli("orgs", "create", "Preview Inc.", "--json")) as { id: number }
const { key } = JSON.parse(await server.cli("keys", "create", "--org", String(org.id), "--name", "preview", "--abilities", "*", "--json")) as { key: string }
console.log("organization and key made")
const started = Date.now()
const seeded = await seedProject(server.baseUrl, key, days, server.importAnswers)
console.log(`${seeded.answers} answers seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`)
console.log(`open ${server.baseUrl}/ and sign in with\n${key}`)
process.on("SIGINT", () => void server.stop().then(() => process.exit(0)))
