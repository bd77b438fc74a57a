/** The look of a category row's small buttons (Edit, Delete, Close, Cancel). */
export const ROW_BUTTON =
  "rounded-md px-2 py-1 text-sm font-medium hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-slate-900";
