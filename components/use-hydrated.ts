import { useSyncExternalStore } from "react";

const subscribeNever = () => () => {};

/**
 * False on the server and while hydrating, true once this component runs in the browser. A control that needs its
 * JavaScript renders disabled until then and says so, rather than taking a press that does nothing.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribeNever,
    () => true,
    () => false,
  );
}
