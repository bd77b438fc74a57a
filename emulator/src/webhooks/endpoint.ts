/** Console operations on the app's webhook endpoint, shared by the console page and the control API. */
import { log } from "@/lib/log";
import type { EmulatorContext } from "../http/types";
import { consoleApp } from "./policy";
import { newSigningSecret } from "./signing";
import { serviceDomainsOf } from "@/lib/webhook-url/domains";
import { checkWebhookUrl, type UrlCheck } from "@/lib/webhook-url/rules";

export function urlRuleOptions(ctx: EmulatorContext) {
  return { allowLocalhost: ctx.config.allowLocalhostWebhooks, serviceDomains: serviceDomainsOf([ctx.config.origin]) };
}

/** Saves a new URL if it passes the console's rules. A new URL must be verified before it receives events. */
export function setWebhookUrl(ctx: EmulatorContext, raw: string): UrlCheck {
  const app = consoleApp(ctx);
  const check = checkWebhookUrl(raw, urlRuleOptions(ctx));
  if (!app || !check.ok) return check;
  if (app.webhook.url !== check.url) {
    app.webhook.url = check.url;
    app.webhook.verified = false;
    ctx.save();
  }
  return check;
}

const SECRET_SHAPE = /^[\x21-\x7e]{16,200}$/;

export class SecretShapeError extends Error {
  override name = "SecretShapeError";
}

/**
 * Replaces the signing secret; the next attempt of every delivery is signed with it, with no overlap. A chosen
 * secret (to match an app's configuration) must be 16 to 200 visible ASCII characters.
 */
export function rotateSigningSecret(ctx: EmulatorContext, chosen?: string): string {
  const app = consoleApp(ctx);
  if (!app) throw new SecretShapeError("no app is registered");
  if (chosen !== undefined && !SECRET_SHAPE.test(chosen)) {
    throw new SecretShapeError("secret must be 16 to 200 visible ASCII characters");
  }
  app.webhook.secret = chosen ?? newSigningSecret();
  ctx.save();
  log.info("emulator webhook signing secret rotated", { appId: app.id });
  return app.webhook.secret;
}
