import { connection } from "next/server";

// The empty page: first-load JavaScript of every app page is compared with this one.
export default async function EmptyPage() {
  await connection();
  return <p>Empty page</p>;
}
