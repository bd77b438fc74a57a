/** The messages of one field, linked to its input by id (aria-describedby) so screen readers read them with it. */
export function FieldError({ id, messages }: { id: string; messages: string[] | undefined }) {
  if (!messages || messages.length === 0) return null;
  return (
    <p id={id} className="mt-1 text-sm text-rose-700" data-field-error>
      {messages.join(" ")}
    </p>
  );
}
