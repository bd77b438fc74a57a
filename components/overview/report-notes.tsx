import type { Translate } from "@/i18n/translate";

export type ReportNote = { part: string; state: "missing" | "unreadable" };

/** The parts of the report left out, each with why: a part the app could not read never hides the others. */
export function ReportNotes({ notes, t }: { notes: ReportNote[]; t: Translate }) {
  if (notes.length === 0) return null;
  return (
    <section aria-labelledby="notes-heading" className="rounded-lg border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-950" data-notes>
      <h2 id="notes-heading" className="font-semibold">
        {t("Overview.notes.heading")}
      </h2>
      <ul className="mt-1 list-disc space-y-0.5 ps-5">
        {notes.map((note) => (
          <li key={note.part}>{note.state === "missing" ? t("Overview.notes.missing", { part: note.part }) : t("Overview.notes.unreadable", { part: note.part })}</li>
        ))}
      </ul>
    </section>
  );
}
