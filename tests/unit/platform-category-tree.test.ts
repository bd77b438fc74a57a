import { describe, expect, it } from "vitest";
import { buildCategoryTree } from "@/lib/platform/categories";
import type { Category } from "@/lib/platform";

const category = (id: number, parentId: number | null, sortOrder: number): Category => ({
  id,
  name: `c${id}`,
  slug: `c${id}`,
  status: "active",
  parentId,
  sortOrder,
  productCount: 0,
});

describe("buildCategoryTree", () => {
  it("nests subcategories under their parent, each level in sort order", () => {
    const tree = buildCategoryTree([category(3, 1, 2), category(1, null, 2), category(2, null, 1), category(4, 1, 1)]);
    expect(tree.map((node) => node.id)).toEqual([2, 1]);
    expect(tree[1]?.children.map((child) => child.id)).toEqual([4, 3]);
    expect(tree[0]?.children).toEqual([]);
  });

  it("keeps a subcategory whose parent is missing at the top level instead of losing it", () => {
    const tree = buildCategoryTree([category(1, null, 1), category(5, 99, 1)]);
    expect(tree.map((node) => node.id)).toEqual([1, 5]);
  });
});
