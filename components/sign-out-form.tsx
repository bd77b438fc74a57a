/** Sign out: a plain form to POST /signout (app/signout), which ends the session on the server; no JavaScript needed. */
export function SignOutForm({ label, className }: { label: string; className: string }) {
  return (
    <form action="/signout" method="post">
      <button type="submit" className={className}>
        {label}
      </button>
    </form>
  );
}
