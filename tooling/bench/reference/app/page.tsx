import Link from "next/link";
import { connection } from "next/server";

// The floor page for first-load JavaScript: next/link links and nothing else of the client's. Every app page's first
// load is compared with this one (its links are the framework's own, as the app's are).
export default async function LinksPage() {
  await connection();
  return (
    <nav>
      <Link href="/rows">Rows</Link> <Link href="/">Home</Link>
    </nav>
  );
}
