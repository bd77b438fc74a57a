/** The look of a category row's small buttons (Edit, Delete, Close, Cancel): at least 44 × 44 px on a phone. */
export const ROW_BUTTON =
  "inline-flex items-center justify-center rounded-md px-2 py-1 text-sm max-sm:min-h-11 max-sm:min-w-11 font-medium hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-slate-900";
