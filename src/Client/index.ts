/** The typed client of the service: `import { BrandVisibilityClient, createClient } from "brand-visibility-monitor/client"`. */
export {
  BrandVisibilityClient,
  type Client,
  type ClientOptions,
  config,
  layer,
  layerConfig,
  make,
  type PromiseClient,
  type RequestOf
} from "./Client.ts"
export { createClient } from "./PromiseClient.ts"
export {
  Conflict,
  Forbidden,
  InvalidProjectHeader,
  MissingProjectHeader,
  NotFound,
  TooManyRequests,
  Unauthenticated,
  ValidationError
} from "../Domain/Errors.ts"
