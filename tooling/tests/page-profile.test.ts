import { describe, expect, it } from "vitest";
import { analyse, type TraceEvent } from "@/tooling/bench/page-profile";

const URL_UNDER_TEST = "http://127.0.0.1:3000/stores/101/orders";
const on = (tid: number) => ({ pid: 1, tid, ph: "X" });

describe("page-profile's reading of a trace", () => {
  const events: TraceEvent[] = [
    { ...on(7), name: "ParseHTML", ts: 1_000, dur: 5_000, args: { beginData: { url: URL_UNDER_TEST } } },
    // A 100 ms task: 40 ms of layout, 30 ms of script inside it (a microtask checkpoint), the rest its own.
    { ...on(7), name: "RunTask", ts: 10_000, dur: 100_000 },
    { ...on(7), name: "LocalFrameView::performLayout", ts: 10_000, dur: 40_000 },
    { ...on(7), name: "RunMicrotasks", ts: 60_000, dur: 30_000 },
    // A short task of script on the same thread, and a long one on another page's thread, which is not this load's.
    { ...on(7), name: "RunTask", ts: 200_000, dur: 10_000 },
    { ...on(7), name: "FunctionCall", ts: 200_000, dur: 10_000 },
    { ...on(9), name: "RunTask", ts: 10_000, dur: 500_000 },
  ];

  it("keeps to the thread that parsed the page, and sorts each event's own time by kind", () => {
    const round = analyse(events, URL_UNDER_TEST);
    expect(round).not.toBeNull();
    expect(round!.busy).toBe(110);
    expect(round!.longest).toBe(100);
    expect(round!.kinds.get("layout")).toBe(40);
    expect(round!.kinds.get("script")).toBe(40);
    // By trace event, each its own time (the task itself is the frame, not work).
    expect(Object.fromEntries(round!.names)).toEqual({ ParseHTML: 5, "LocalFrameView::performLayout": 40, RunMicrotasks: 30, FunctionCall: 10 });
    // Lighthouse's simulation: each task 4x, what passes 50 ms blocks (400 - 50; the 40 ms one blocks nothing).
    expect(round!.blocking).toBe(350);
  });

  it("times each kind of work by the thread's own clock too, each event less what it holds", () => {
    const waited: TraceEvent[] = [
      { ...on(7), name: "ParseHTML", ts: 1_000, dur: 5_000, tdur: 4_000, args: { beginData: { url: URL_UNDER_TEST } } },
      // 100 ms of wall time in which the thread ran 45: script 30 of it, a forced layout inside the script 10.
      { ...on(7), name: "RunTask", ts: 10_000, dur: 100_000, tdur: 45_000 },
      { ...on(7), name: "FunctionCall", ts: 10_000, dur: 90_000, tdur: 40_000 },
      { ...on(7), name: "Layout", ts: 50_000, dur: 20_000, tdur: 10_000 },
      // An event the trace gave no thread time counts none, and never makes its parent's negative.
      { ...on(7), name: "RunTask", ts: 200_000, dur: 10_000, tdur: 2_000 },
      { ...on(7), name: "EvaluateScript", ts: 200_000, dur: 10_000, tdur: 2_000 },
      { ...on(7), name: "v8.compile", ts: 201_000, dur: 5_000 },
    ];
    const round = analyse(waited, URL_UNDER_TEST)!;
    expect(round.kinds.get("script")).toBe(80);
    expect(round.threadKinds.get("script")).toBe(32);
    expect(round.kinds.get("layout")).toBe(20);
    expect(round.threadKinds.get("layout")).toBe(10);
    expect(round.threadKinds.get("parse HTML")).toBe(4);
    // The first trace, recorded without thread timestamps: no thread time, not zero.
    expect(analyse(events, URL_UNDER_TEST)!.threadKinds.size).toBe(0);
  });

  it("counts the work asked of the renderer on the page's thread: elements styled, objects laid out, text shaped", () => {
    const counted: TraceEvent[] = [
      ...events,
      { ...on(7), name: "UpdateLayoutTree", ts: 11_000, dur: 2_000, args: { elementCount: 600 } },
      { ...on(7), name: "UpdateLayoutTree", ts: 14_000, dur: 1_000, args: { elementCount: 74 } },
      { ...on(7), name: "Layout", ts: 20_000, dur: 5_000, args: { beginData: { dirtyObjects: 1_100 } } },
      { ...on(7), name: "Layout", ts: 26_000, dur: 1_000, args: { beginData: { dirtyObjects: 46 } } },
      { ...on(7), name: "InlineNode::ShapeTextIncludingFirstLine", ts: 21_000, dur: 100 },
      // A run too short for the trace to give it a duration is counted all the same.
      { ...on(7), name: "InlineNode::ShapeTextIncludingFirstLine", ts: 22_000, dur: 0 },
      // Another page's renderer styles and shapes too: not this load's work.
      { ...on(9), name: "UpdateLayoutTree", ts: 11_000, dur: 2_000, args: { elementCount: 5_000 } },
      { ...on(9), name: "InlineNode::ShapeTextIncludingFirstLine", ts: 21_000, dur: 100 },
    ];
    expect(analyse(counted, URL_UNDER_TEST)!.work).toEqual({ styledElements: 674, laidOutObjects: 1_146, shapedTexts: 2 });
    expect(analyse(events, URL_UNDER_TEST)!.work).toEqual({ styledElements: 0, laidOutObjects: 0, shapedTexts: 0 });
  });

  it("finds nothing when the page's document was never parsed", () => {
    expect(analyse(events, "http://127.0.0.1:3000/elsewhere")).toBeNull();
  });
});
