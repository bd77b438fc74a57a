"use client";

import { useFormStatus } from "react-dom";

/**
 * Disabled while its form is being sent, so an impatient second click does not queue a second submission. At least
 * 44 × 44 px on a phone.
 */
export function SubmitButton({
  children,
  pendingLabel,
  tone = "primary",
}: {
  children: React.ReactNode;
  pendingLabel: string;
  tone?: "primary" | "danger" | "secondary";
}) {
  const { pending } = useFormStatus();
  const tones = {
    primary: "bg-slate-900 text-white hover:bg-slate-700",
    danger: "bg-rose-700 text-white hover:bg-rose-600",
    secondary: "border border-slate-300 bg-white text-slate-900 hover:bg-slate-50",
  };
  return (
    <button
      type="submit"
      aria-disabled={pending}
      disabled={pending}
      className={`rounded-md px-3 py-1.5 text-sm font-medium max-sm:min-h-11 max-sm:min-w-11 disabled:opacity-60 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-slate-900 ${tones[tone]}`}
    >
      {pending ? pendingLabel : children}
    </button>
  );
}
