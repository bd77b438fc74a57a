"use client";

import { createContext, use } from "react";
import { fill } from "@/i18n/translate";

const Messages = createContext<Record<string, string>>({});

/**
 * Hands a few server-translated messages (i18n/server.ts clientMessages) to the client components below it.
 * Nested providers add to their parent's messages.
 */
export function ClientMessages({ messages, children }: { messages: Record<string, string>; children: React.ReactNode }) {
  const parent = use(Messages);
  return <Messages value={{ ...parent, ...messages }}>{children}</Messages>;
}

/** A translator over the messages provided above; a missing key shows the key, which the e2e suite would catch. */
export function useT(): (key: string, values?: Record<string, string | number>) => string {
  const messages = use(Messages);
  return (key, values) => fill(messages[key] ?? key, values);
}
