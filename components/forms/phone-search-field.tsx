/**
 * The customer's phone as a search field (the orders' and the customers' filters): a phone keypad, no autofill of
 * the merchant's own number, written left to right in either language ("+213…" keeps its plus in front), and a
 * hint that says how it may be typed. Its value is the URL's (?phone=), so the form works without JavaScript.
 */
export function PhoneSearchField({ id, label, hint, phone }: { id: string; label: string; hint: string; phone: string | null }) {
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        {label}
      </label>
      <input
        id={id}
        name="phone"
        type="tel"
        inputMode="tel"
        autoComplete="off"
        defaultValue={phone ?? ""}
        aria-describedby={`${id}-hint`}
        dir="ltr"
        className="field-control w-44 max-w-full text-start"
      />
      <span id={`${id}-hint`} className="text-xs text-slate-600">
        {hint}
      </span>
    </div>
  );
}
