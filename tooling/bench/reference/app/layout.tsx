// The app's own stylesheet, through Next's CSS pipeline as the app links it (tooling/bench/reference/postcss.config.mjs):
// the floor's pages wait for a stylesheet of the app's size before their first paint, as the app's do.
import "../../../../app/globals.css";

export const metadata = { title: "Reference" };

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}
