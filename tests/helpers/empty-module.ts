// Stands in for `server-only` outside Next's react-server bundle (vitest, tsx scripts).
export {};
