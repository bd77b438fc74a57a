/**
 * app/globals.css compiled, as text, for the root layout's <style>. next.config.ts sends this module through
 * build/inline-css-loader.mjs: a production build replaces the empty string below with Tailwind's output; next dev
 * links globals.css the usual way (for hot reload) and keeps the empty string, as do tools outside Next's bundler
 * (the type checker, unit tests).
 */
const stylesheet: string = "";
export default stylesheet;
