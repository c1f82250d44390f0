/** An SVG imported by the dashboard: esbuild copies it into the build and gives its URL. */
declare module "*.svg" {
  const url: string
  export default url
}
