import type { Translate } from "@/i18n/translate";

export type RankingColumn = { heading: string; numeric?: boolean };
export type RankingRow = { key: string; name: string; nameIsStoreData: boolean; cells: string[] };

/**
 * A small captioned table (top products, top wilayas, devices, traffic sources). Names written by the store (product
 * and wilaya names, in Arabic or French whatever the page's language) get `dir="auto"`, so each reads in its own
 * direction.
 */
export function RankingTable({
  id,
  title,
  columns,
  rows,
  t,
}: {
  id: string;
  title: string;
  columns: RankingColumn[];
  rows: RankingRow[];
  t: Translate;
}) {
  return (
    <section aria-labelledby={`${id}-title`} className="min-w-0 rounded-lg border border-slate-200 bg-white p-4 shadow-sm" data-table={id}>
      <h2 id={`${id}-title`} className="font-semibold text-slate-900">
        {title}
      </h2>
      {rows.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">{t("Overview.tables.empty")}</p>
      ) : (
        <table className="mt-2 w-full table-fixed text-sm">
          <thead>
            <tr className="border-b border-slate-200">
              {columns.map((column, index) => (
                <th
                  key={column.heading}
                  scope="col"
                  className={`py-1 align-bottom font-medium ${column.numeric ? "w-24 text-end [overflow-wrap:anywhere]" : "text-start"} ${index === 0 ? "pe-2" : "ps-2"}`}
                >
                  {column.heading}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.key} className="border-b border-slate-100 last:border-0">
                <th scope="row" className="break-words py-1.5 pe-2 text-start font-normal">
                  {row.nameIsStoreData ? <bdi dir="auto">{row.name}</bdi> : row.name}
                </th>
                {row.cells.map((cell, index) => (
                  <td key={index} className="py-1.5 ps-2 text-end tabular-nums">
                    {cell}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
