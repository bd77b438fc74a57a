import path from "node:path";

// Tailwind scans the project's files from the repository's root, as for the app's own build (postcss.config.mjs):
// the reference's copy of app/globals.css then holds the same rules and has the same size.
const config = { plugins: { "@tailwindcss/postcss": { base: path.join(import.meta.dirname, "..", "..") } } };

export default config;
