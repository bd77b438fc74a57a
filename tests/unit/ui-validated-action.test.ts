import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { formValues, validatedAction } from "@/lib/actions/validated-action";
import { translator } from "../helpers/i18n";

// Outside a Next request there is no request locale: next-intl's server entry is given the French catalogue, so the
// test also proves that refusals are translated (and that zod's own English never reaches the merchant).
vi.mock("next-intl/server", () => ({ getTranslations: async () => translator("fr") }));

const schema = z.object({
  name: z.string().trim().min(1, "Validation.nameRequired").max(5, "Validation.nameTooLong"),
  parentId: z.coerce.number().int().min(0),
  idempotencyKey: z.string(),
});

function form(entries: Record<string, string>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(entries)) data.set(key, value);
  return data;
}

describe("validatedAction", () => {
  it("hands coerced, validated data to the action", async () => {
    let received: unknown;
    const action = validatedAction(schema, async (data) => {
      received = data;
      return { ok: true, message: "done" };
    });
    const state = await action({ ok: false }, form({ name: "  Robes ", parentId: "12", idempotencyKey: "k1" }));
    expect(state).toMatchObject({ ok: true, message: "done" });
    expect(received).toEqual({ name: "Robes", parentId: 12, idempotencyKey: "k1" });
    // Every answer is distinguishable, so forms can remount their selects with what was typed.
    const again = await action(state, form({ name: "Robes", parentId: "12", idempotencyKey: "k1" }));
    expect(typeof again.resultId).toBe("string");
    expect(again.resultId).not.toBe(state.resultId);
  });

  it("refuses invalid input with per-field errors and the typed values, without running the action", async () => {
    let ran = false;
    const action = validatedAction(schema, async () => {
      ran = true;
      return { ok: true };
    });
    const state = await action({ ok: false }, form({ name: "   ", parentId: "x", idempotencyKey: "k2" }));
    expect(ran).toBe(false);
    expect(state.ok).toBe(false);
    expect(state.message).toBe("Vérifiez les champs signalés.");
    expect(state.fieldErrors?.name).toEqual(["Saisissez un nom."]);
    expect(state.fieldErrors?.parentId).toEqual(["Cette valeur n'est pas valide."]);
    expect(state.values).toMatchObject({ name: "   ", parentId: "x" });
    // Nothing reached the platform, so the same key is still good for the corrected form.
    expect(state.idempotencyKey).toBe("k2");
  });

  it("tells the limit a too long value broke, in the merchant's words", async () => {
    const action = validatedAction(schema, async () => ({ ok: true }));
    const state = await action({ ok: false }, form({ name: "Caftans", parentId: "0", idempotencyKey: "k3" }));
    expect(state.fieldErrors?.name).toEqual(["Le nom doit faire 5 caractères au maximum."]);
  });

  it("leaves Next's own action fields out of the echoed values", () => {
    expect(formValues(form({ $ACTION_ID_abc: "", name: "x" }))).toEqual({ name: "x" });
  });
});
