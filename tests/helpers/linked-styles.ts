import type { Page } from "@playwright/test";

/**
 * Rules of app/globals.css that only the app's own stylesheet holds (components, the orders list, the navigation
 * bar, and a utility of the root layout): a page whose stylesheets hold them all got the app's styles.
 */
export const APP_RULES = [
  ".button-primary",
  ".orders-table tbody tr",
  "[data-badge]",
  "body:has([data-navigating])::before",
  ".bg-slate-50",
] as const;

export type LinkedStyles = {
  /** Each `<link rel="stylesheet">` of the document: its address and whether the browser loaded it into a sheet. */
  links: { href: string; sameOrigin: boolean; loaded: boolean }[];
  /** `<style>` elements in the document: the app writes none (its stylesheet is linked). */
  inlineStyles: number;
  /** Every selector of the linked sheets, @layer, @media and @supports blocks unwrapped. */
  selectors: string[];
  /** The body's computed background, and what `bg-slate-50` (its class in the root layout) computes to on its own. */
  bodyBackground: string;
  slate50: string;
};

/** What the page, loaded, got for styles: read in the browser from the document and its CSSOM. */
export function linkedStyles(page: Page): Promise<LinkedStyles> {
  return page.evaluate(() => {
    const selectors: string[] = [];
    const collect = (rules: CSSRuleList) => {
      for (const rule of Array.from(rules)) {
        if (rule instanceof CSSStyleRule) selectors.push(rule.selectorText);
        if ("cssRules" in rule && rule.cssRules instanceof CSSRuleList) collect(rule.cssRules);
      }
    };
    const links = Array.from(document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')).map((link) => {
      const sheet = link.sheet;
      if (sheet) collect(sheet.cssRules);
      return { href: link.href, sameOrigin: new URL(link.href).origin === location.origin, loaded: sheet !== null };
    });
    // The colour as this browser and this build write it (oklch, lab or rgb, as the CSS minifier chose).
    const probe = document.createElement("div");
    probe.className = "bg-slate-50";
    document.body.append(probe);
    const slate50 = getComputedStyle(probe).backgroundColor;
    probe.remove();
    return {
      links,
      slate50,
      inlineStyles: document.querySelectorAll("style").length,
      selectors,
      bodyBackground: getComputedStyle(document.body).backgroundColor,
    };
  });
}

/** True when the root layout's classes took effect: the body has the app's background, which is not transparent. */
export function bodyStyled(styles: LinkedStyles): boolean {
  return styles.bodyBackground === styles.slate50 && styles.slate50 !== "rgba(0, 0, 0, 0)";
}

/** The app's rules missing from what the page got (empty when its stylesheet arrived whole). */
export function missingAppRules(styles: LinkedStyles): string[] {
  const present = new Set(styles.selectors);
  return APP_RULES.filter((rule) => !present.has(rule));
}
