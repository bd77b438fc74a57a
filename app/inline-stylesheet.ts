/**
 * app/globals.css compiled, as text, for the head of each document (app/inline-stylesheet-writer.tsx). next.config.ts
 * sends this module through build/inline-css-loader.mjs: a production build's server bundles get Tailwind's output in
 * place of the empty string below; next dev links globals.css the usual way (for hot reload) and keeps the empty
 * string, as do the browser's bundle and tools outside Next's bundler (the type checker, unit tests).
 */
const stylesheet: string = "";
export default stylesheet;
